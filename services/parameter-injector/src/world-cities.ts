// A gazetteer of the world's cities (PI-2, places in two parts): the name, the ISO 3166-1 alpha-2 country, for a city of
// the United States its state's two-letter postal code, and the population — for writing a place the request names
// alone ("weather in Boston") in the two-part form a parameter documents ("in the format of 'City, State'" →
// "Boston, MA"), and for telling which of several namesakes a bare name means.
//
// Source: the populated places of Natural Earth (public domain), as the npm package city-timezones 1.3.4 (MIT)
// ships them in data/cityMap.json; the cities of 10 000 inhabitants or more with a country code, one row per name, country and state.
// Generated, not edited: `name|country|state|population` per line.

/** One city of the gazetteer. */
export interface WorldCity {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The US state's postal code; empty outside the United States. */
  state: string;
  population: number;
}

/** The US states by name (as Natural Earth writes them) → their two-letter postal codes. */
export const US_STATE_CODES: Readonly<Record<string, string>> = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  Washington: 'WA',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
};

const ROWS = `
'Ataq|YE||37315
's-Hertogenbosch|NL||134520
25 de Mayo|AR||17430
Aalborg|DK||111918
Aarau|CH||15501
Aba|NG||874385
Abadan|IR||315129
Abadla|DZ||14364
Abaetetuba|BR||78735
Abakan|RU||161377
Abancay|PE||53981
Abaza|RU||17638
Abbotsford|CA||151683
Abbottabad|PK||1032324
Abeche|TD||116252
Abengourou|CI||87809
Abeokuta|NG||441231
Aberdeen|GB||186577
Aberdeen|US|SD|24854
Aberdeen|US|WA|24400
Abha|SA||207802
Abidjan|CI||3496198
Abilene|US|TX|108008
Abohar|IN||130603
Aboisso|CI||37654
Abomey|BJ||82154
Abu Dhabi|AE||581861
Abu Kamal|SY||69190
Abuja|NG||869068
Acapulco|MX||683860
Acarau|BR||21024
Acarigua|VE||202312
Acatlan|MX||17586
Accra|GH||2042132
Achinsk|RU||112542
Acu|BR||33303
Ad Dakhla|MA||82146
Ad Damazin|SD||114030
Ad Damman|SA||1411656
Ad Diwaniyah|IQ||338604
Ad Nabk|SY||49775
Adana|TR||1245445
Adapazari|TR||260109
Addis Ababa|ET||2928864
Adelaide|AU||990677
Aden|YE||775301
Adigrat|ET||104021
Adiyaman|TR||195497
Adjumani|UG||34700
Ado Ekiti|NG||446749
Adrar|DZ||56910
Afyon|TR||151564
Agadez|NE||103166
Agadir|MA||752032
Agana|GU||61756
Agartala|IN||203264
Agboville|CI||73028
Agen|FR||46295
Aginskoye|RU||11491
Agordat|ER||18728
Agra|IN||1511028
Agri|TR||87854
Agrinio|GR||59379
Agua Prieta|MX||77264
Aguascalientes|MX||763590
Ahar|IR||98994
Ahmedabad|IN||4547355
Ahmednagar|IN||379450
Ahuachapan|SV||34102
Ahvaz|IR||918572
Aiken|US|SC|36716
Aix-en-Provence|FR||145309
Aizawl|IN||274176
Ajaccio|FR||46905
Ajdabiya|LY||139096
Ajmer|IN||553948
Aketi|CD||46881
Akhtubinsk|RU||38179
Akita|JP||300962
Akola|IN||466180
Akron|US|OH|451155
Aksu|CN||309704
Aksum|ET||44368
Aktobe|KZ||260493
Akure|NG||420594
Akureyi|IS||14754
Al Ahmadi|KW||68763
Al Amarah|IQ||334154
Al Aqabah|JO||95048
Al Ayn|AE||352500
Al Bayda|YE||37821
Al Fallujah|IQ||210989
Al Fujayrah|AE||78289
Al Ghaydah|YE||23702
Al Hasakah|SY||104820
Al Hillah|SA||594605
Al Hillah|IQ||479652
Al Hudaydah|YE||627610
Al Hufuf|SA||518694
Al Jahra|KW||194193
Al Jawf|LY||24132
Al Jubayl|SA||235237
Al Karak|JO||50870
Al Khalil|PS||220396
Al Kharj|SA||298428
Al Khums|LY||192502
Al Kut|IQ||318342
Al Ladhiqiyah|SY||439664
Al Mafraq|JO||57118
Al Marj|LY||127428
Al Mubarraz|SA||294682
Al Mukalla|YE||194080
Al Musayyib|IQ||59678
Al Qamishli|SY||104107
Al Wajh|SA||34936
Al-Qatif|SA||233576
Alagoinhas|BR||123379
Alajuela|CR||217618
Alamogordo|US|NM|33710
Alapayevsk|RU||43664
Alappuzha|IN||176783
Alatyr|RU||44292
Alausi|EC||14294
Alayat Samail|OM||32862
Alba Lulia|RO||66085
Albacete|ES||127597
Albany|US|NY|484286
Albany|US|GA|82280
Albany|US|OR|48066
Albany|AU||25179
Albert Lea|US|MN|19064
Albuquerque|US|NM|725723
Albury|AU||68534
Aldama|MX||11367
Aldan|RU||18572
Alekseyevka|RU||38634
Aleksin|RU||59194
Alenquer|BR||26290
Aleppo|SY||2170132
Alexandria|EG||3988258
Alexandria|US|VA|127273
Alexandria|US|LA|60876
Alexandria|RO||49346
Alexandroupoli|GR||48712
Aleysk|RU||22478
Algeciras|ES||106688
Algha|KZ||28267
Algiers|DZ||2665832
Ali Bayramli|AZ||70452
Ali Sabih|DJ||32166
Alicante|ES||296345
Alice|US|TX|21122
Alice Springs|AU||26949
Aligarh|IN||779104
Alipur Duar|IN||127342
Aliwal North|ZA||26423
Allanmyo|MM||48446
Allende|MX||18268
Allentown|US|PA|300980
Almaty|KZ||1096256
Almenara|BR||22174
Almeria|ES||152032
Almetyevsk|RU||117971
Alor Setar|MY||276922
Alotau|PG||11624
Alpena|US|MI|14524
Alta|NO||12077
Alta Floresta|BR||40466
Alta Gracia|AR||30593
Altagracia de Orituco|VE||34427
Altamira|BR||56769
Altay|CN||140670
Altay|MN||32488
Alton|US|IL|57386
Altoona|US|PA|62784
Alwar|IN||283228
Alxa Zuoqi|CN||56387
Am Timan|TD||29664
Amahai|ID||26172
Amarillo|US|TX|178526
Amasya|TR||77700
Ambala|IN||146787
Ambanja|MG||26232
Ambato|EC||217897
Ambatondrazaka|MG||41843
Ambon|ID||227561
Ambriz|AO||17000
Americana|BR||337747
Ames|US|IA|56855
Amiens|FR||118908
Amman|JO||1060000
Ammochostos|CY||33016
Amol|IR||210516
Amos|CA||10476
Amravati|IN||669144
Amritsar|IN||1152225
Amsterdam|NL||886318
Amursk|RU||45902
An Najaf|IQ||612776
An Nasiriyah|IQ||425898
Anaco|VE||100118
Anadyr|RU||10332
Anapolis|BR||278596
Anatuya|AR||14133
Anbyon|KP||34994
Anchorage|US|AK|252068
Ancona|IT||95599
Ancud|CL||24241
Anda|CN||181402
Anderson|US|SC|43476
Andijon|UZ||486950
Andkhvoy|AF||50469
Andoany|MG||20536
Andong|KR||123920
Andorra|AD||38127
Andradina|BR||45715
Ang Thong|TH||13738
Angangxi|CN||24317
Angarsk|RU||231719
Angeles|PH||314493
Angers|FR||178330
Angoche|MZ||57835
Angol|CL||38384
Angra do Heroismo|PT||11136
Angren|UZ||164514
Ankang|CN||1025000
Ankara|TR||3511690
Anlu|CN||71198
Ann Arbor|US|MI|189893
Annaba|DZ||355047
Annapolis|US|MD|58776
Annecy|FR||77490
Anqing|CN||469579
Ansan|KR||695110
Anshan|CN||1419138
Anshun|CN||600468
Antalaha|MG||40668
Antalya|TR||703468
Antananarivo|MG||1544216
Antigua Guatemala|GT||39368
Antioch|TR||154803
Antofagasta|CL||295539
Antsirabe|MG||307921
Antsiranana|MG||76312
Antsohihy|MG||15258
Antwerpen|BE||689902
Anuradhapura|LK||89622
Anxi|CN||17886
Anyang|CN||834064
Anzhero Sudzhensk|RU||83109
Aomori|JP||281572
Aosta|IT||34062
Apatity|RU||64046
Apatzingan|MX||92616
Apia|WS||49812
Appleton|US|WI|136888
Apsheronsk|RU||43164
Apucarana|BR||102577
Aqsay|KZ||30404
Aquidauana|BR||38053
Ar Ramadi|IQ||284830
Ar Raqqah|SY||175600
Ar Rutbah|IQ||17200
Aracaju|BR||587766
Aracati|BR||28126
Aracatuba|BR||166305
Aracuai|BR||15302
Arad|RO||159338
Araguaina|BR||50444
Araguari|BR||79910
Arak|IR||463449
Arak|DZ||423251
Aral|KZ||30185
Aranyaprathet|TH||21354
Arapiraca|BR||177115
Arapongas|BR||91204
Arar|SA||185278
Ararangua|BR||42198
Arauca|CO||46530
Arawa|PG||40266
Araxa|BR||70160
Arba Minch|ET||54344
Arcata|US|CA|19052
Archangel|RU||295186
Arcoverde|BR||53066
Ardabil|IR||412678
Ardmore|US|OK|24468
Arecibo|PR||59312
Arendal|NO||30916
Arequipa|PE||775785
Arezzo|IT||82613
Arica|CL||178446
Aripuana|BR||26983
Ariquemes|BR||58096
Arjona|CO||47225
Arlington|US|TX|545108
Arlit|NE||90000
Arlon|BE||26179
Armavir|RU||191814
Armenia|CO||314798
Armidale|AU||21794
Arnhem|NL||141674
Arqalyq|KZ||48760
Arras|FR||55608
Arrecife|ES||47182
Arsenyev|RU||56721
Artashat|AM||20562
Artemisa|CU||46024
Artemovskiy|RU||39194
Artigas|UY||32072
Artvin|TR||27900
Arua|UG||154700
Arusha|TZ||330605
Arvayheer|MN||28053
Arxan|CN||32023
Arys|KZ||39466
Arzamas|RU||126038
As Salt|JO||110439
As Samawah|IQ||163934
As Sib|OM||237816
As Sulaymaniyah|IQ||654318
As Sulayyil|SA||20858
As Suwayda|SY||65650
Asadabad|AF||48400
Asahikawa|JP||341080
Asansol|IN||1328000
Asbest|RU||77916
Ascension|BO||12085
Ascension|MX||10761
Asela|ET||82240
Ash Shatrah|IQ||122340
Ash Shihr|YE||54274
Asha|RU||35944
Asheville|US|NC|105775
Ashgabat|TM||652841
Ashtarak|AM||18779
Asino|RU||24732
Asmara|ER||592366
Asosa|ET||24192
Assab|ER||105496
Assen|NL||62237
Assis|BR||79133
Astana|KZ||335312
Asti|IT||63410
Astrakhan|RU||493364
Asuncion|PY||940846
Aswan|EG||277352
Asyut|EG||420585
At Bashy|KG||15414
At Tafilah|JO||25429
At Taif|SA||594065
Atakpame|TG||74757
Atal Nagar|IN||777498
Atamyrat|TM||32205
Atar|MR||44265
Atasu|KZ||16400
Atbara|SD||138271
Atbasar|KZ||35308
Athens|GR||1985568
Athens|US|GA|78018
Ati|TD||24724
Atkarsk|RU||23316
Atlanta|US|GA|2464454
Atlantic City|US|NJ|58564
Atlixco|MX||91866
Atoyac|MX||19798
Atyrau|KZ||170583
Auburn|US|AL|61881
Auckland|NZ||759510
Augsburg|DE||309092
Augusta|US|GA|152896
Augusta|US|ME|21301
Aurora|US|CO|431966
Aurora|US|IL|273950
Austin|US|TX|919684
Autlan|MX||44912
Auxerre|FR||38034
Avare|BR||70709
Aveiro|PT||54162
Awasa|ET||133097
Aweil|SS||42725
Awka|NG||400828
Ayacucho|PE||153174
Ayakoz|KZ||39670
Ayapel|CO||23120
Ayaviri|PE||12524
Aybak|AF||24000
Aydin|TR||180940
Ayodhya|IN||153047
Ayorou|NE||14001
Ayr|GB||57278
Ayutthaya|TH||113788
Az Aubayr|IQ||192448
Az Zahran|SA||54373
Az Zarqa|JO||843678
Az Zawiyah|LY||193062
Azare|NG||87912
Azogues|EC||51982
Azua|DO||59139
Azul|AR||43408
Babahoyo|EC||59873
Babanusa|SD||19700
Babati|TZ||19117
Babruysk|BY||212822
Bac Giang|VN||53728
Bac Kan|VN||29227
Bac Lieu|VN||187500
Bacabal|BR||57296
Bacau|RO||185532
Bacolod|PH||730587
Badajoz|ES||115638
Bade|TW||172065
Badulla|LK||44908
Bafang|CM||86916
Bafata|GW||26112
Bafia|CM||41201
Bafoulabe|ML||26823
Bafoussam|CM||290768
Bafra|TR||95198
Bagamoyo|TZ||41610
Bage|BR||102519
Baghdad|IQ||5054000
Baghlan|AF||163598
Baglung|NP||23296
Bago|MM||264347
Baguio City|PH||360269
Bahawalpur|PK||552607
Bahia Blanca|AR||279041
Bahir Dar|ET||187824
Bahraich|IN||182218
Baia Mare|RO||134630
Baicheng|CN||351916
Baiquan|CN||52680
Bairin Zuoqi|CN||48540
Baishan|CN||330000
Bakal|RU||24160
Bakersfield|US|CA|367259
Baku|AZ||2007150
Balakhna|RU||62487
Balakovo|RU||172822
Balashov|RU||84107
Balboa|PA||62882
Balcarce|AR||18967
Balikesir|TR||249834
Balikpapan|ID||439886
Balkanabat|TM||99324
Balkh|AF||147426
Ballarat|AU||73404
Ballari|IN||391034
Ballina|AU||13998
Balqash|KZ||80586
Balsas|BR||39762
Balti|MD||135022
Baltimore|US|MD|1432946
Balykchy|KG||40264
Balyqshy|KZ||25442
Bam|IR||99268
Bama|NG||86410
Bamako|ML||1395640
Bambari|CF||47322
Bamenda|CM||419567
Bamian|AF||61863
Banamba|ML||18312
Banda Aceh|ID||344066
Bandar Lampung|ID||881801
Bandar Seri Begawan|BN||218250
Bandar-e Bushehr|IR||167218
Bandar-e-Abbas|IR||414504
Bandarbeyla|SO||13753
Bandjarmasin|ID||588206
Bandundu|CD||107998
Bandung|ID||2046860
Banes|CU||47746
Banfora|BF||45904
Bangassou|CF||28601
Banghazi|LY||881187
Bangkok|TH||5904238
Bangor|US|ME|40843
Bangui|CF||727348
Bani|DO||66709
Bani Walid|LY||55871
Banja Luka|BA||221422
Banjul|GM||38842
Bannu|PK||586210
Banska Bystrica|SK||80784
Banyuwangi|ID||140295
Baoding|CN||1051326
Baoji|CN||800000
Baoshan|CN||925000
Baotou|CN||1229664
Baqubah|IQ||226014
Barabinsk|RU||29888
Barahona|DO||83644
Baraki Barak|AF||22305
Baramula|IN||122631
Baranavichy|BY||156514
Barbacena|BR||101628
Barcelona|ES||3250798
Barcelona|VE||361430
Barddhaman|IN||301725
Bareilly|IN||781218
Bari|IT||408554
Barinas|VE||261406
Barisal|BD||202242
Barlett|US|TN|164844
Barletta|IT||99962
Barnaul|RU||569711
Barquisimeto|VE||962745
Barra do Bugres|BR||22386
Barra do Corda|BR||48901
Barra do Garcas|BR||41214
Barra Mansa|BR||166719
Barrancabermeja|CO||177802
Barranquilla|CO||1521246
Barras|BR||11952
Barreiras|BR||86246
Barreiros|BR||35472
Barretos|BR||97562
Barrie|CA||150886
Barstow|US|CA|21119
Bartica|GY||11340
Bartlesville|US|OK|24935
Baruun Urt|MN||15805
Barysaw|BY||127694
Basankusu|CD||52216
Basel|CH||500318
Basoko|CD||22953
Basra|IQ||870000
Bassar|TG||61845
Basse Santa Su|GM||14380
Basseterre|KN||18694
Bastia|FR||40558
Bata|GQ||135944
Batangas|PH||330939
Batatais|BR||44061
Bataysk|RU||106844
Bath|GB||92679
Bati|ET||12826
Batman|TR||276338
Batna|DZ||269467
Baton Rouge|US|LA|322710
Batouri|CM||42271
Battambang|KH||152608
Batticaloa|LK||107982
Battle Creek|US|MI|62454
Batu Pahat|MY||177928
Batumi|GE||138674
Baturite|BR||17798
Baubau|ID||24412
Bauchi|NG||244350
Bauru|BR||307930
Bawku|GH||65212
Bay City|US|MI|51558
Bay City|US|TX|17487
Bayamo|CU||177623
Bayan Obo|CN||27476
Bayankhongor|MN||26252
Baydhabo|SO||128830
Baykonur|KZ||36175
Baytown|US|TX|76688
Beaufort|US|SC|21941
Beaufort West|ZA||28070
Beaumont|US|TX|107456
Beaver Falls|US|PA|64814
Bechar|DZ||142416
Beckley|US|WV|27358
Beer Sheva|IL||196504
Beeville|US|TX|11748
Behbehan|IR||82517
Beian|CN||154936
Beihai|CN||567289
Beijing|CN||9293300
Beipiao|CN||191757
Beira|MZ||507196
Beirut|LB||1779062
Beitbridge|ZW||13760
Beja|TN||58400
Beja|PT||28756
Bejaia|DZ||274520
Bekasi|ID||1949165
Bekescsaba|HU||65206
Belabo|CM||11456
Belagavi|IN||609472
Belaya Kalitva|RU||47810
Belebey|RU||57674
Beledweyne|SO||59178
Belem|BR||1787368
Belen|AR||11359
Belfast|GB||362588
Belgorod|RU||328004
Belgrade|RS||1099000
Belize City|BZ||62244
Bell Ville|AR||29605
Bella Union|UY||17947
Bella Vista|PY||11252
Belleville|US|IL|92410
Belleville|CA||43990
Bellingham|US|WA|86566
Bellinzona|CH||16572
Bello|CO||456304
Belmopan|BZ||14300
Belo Horizonte|BR||3974112
Belogorsk|RU||69057
Belomorsk|RU||12165
Bemidji|US|MN|14064
Ben Gardane|TN||16604
Bend|US|OR|70598
Bendigo|AU||68790
Benevento|IT||59280
Bengaluru|IN||5945524
Bengbu|CN||735324
Bengkulu|ID||368192
Benguela|AO||142017
Benha|EG||167029
Beni|CD||211276
Beni Mazar|EG||68853
Beni Suef|EG||339537
Benin City|NG||929013
Benoni|ZA||1795672
Bento Goncalves|BR||92562
Benton Harbor|US|MI|34638
Benxi|CN||923933
Berat|AL||46866
Berber|SD||35976
Berberati|CF||60605
Berdyansk|UA||88409
Berekum|GH||36484
Berezniki|RU||153305
Bergamo|IT||160658
Bergen|NO||200390
Berkeley|US|CA|298257
Berlin|DE||3250007
Bermejo|BO||36544
Bern|CH||198480
Bertoua|CM||153286
Besancon|FR||124193
Bethal|ZA||96184
Bethlehem|ZA||66373
Beyla|GN||13204
Beyneu|KZ||32452
Bezhetsk|RU||31425
Beziers|FR||77760
Bhagalpur|IN||361548
Bhairawa|NP||63367
Bharatpur|IN||229384
Bhatpara|IN||483129
Bhavnagar|IN||509790
Bhilai|IN||1097000
Bhilwara|IN||358171
Bhimphedi|NP||15000
Bhisho|ZA||149142
Bhiwandi|IN||751018
Bhiwani|IN||190855
Bhopal|IN||1663457
Bhubaneshwar|IN||803122
Bhuj|IN||289429
Bhusawal|IN||177684
Biak|ID||103610
Bialystok|PL||288722
Biarritz|FR||89268
Bida|NG||172752
Bidar|IN||252104
Biel|CH||63661
Bielefeld|DE||311740
Bien Hoa|VN||652646
Big Spring|US|TX|23987
Biharamulo|TZ||21818
Bijapur|IN||270967
Bijar|IR||48806
Bikaner|IN||485962
Bikin|RU||19264
Bila Tserkva|UA||192418
Bilaspur|IN||436780
Bilbao|ES||614370
Bilecik|TR||40285
Billings|US|MT|102152
Biloxi|US|MS|43857
Binga|CD||64639
Binghamton|US|NY|92688
Bingol|TR||80568
Binjai|ID||405494
Bintulu|MY||117644
Birak|LY||42432
Biratnagar|NP||182324
Birganj|NP||133238
Birjand|IR||260842
Birmingham|GB||1634666
Birmingham|US|AL|670142
Birni Nkonni|NE||56678
Birnin Kebbi|NG||102340
Birobidzhan|RU||75022
Birsk|RU||33903
Bishkek|KG||820606
Biskra|DZ||202103
Bismarck|US|ND|60288
Bissau|GW||395684
Bistrita|RO||81318
Bitam|GA||13967
Bitlis|TR||52960
Bitola|MK||75551
Biu|NG||64620
Biysk|RU||209796
Bizerte|TN||127556
Blackpool|GB||207946
Blacksburg|US|VA|53846
Blagodarnyy|RU||28070
Blagoveshchensk|RU||206711
Blantyre|MW||584877
Blenheim|NZ||23056
Blida|DZ||388174
Blitar|ID||132416
Bloemfontein|ZA||459866
Bloemhof|ZA||10662
Bloomington|US|IL|99842
Bloomington|US|IN|85782
Bluefields|NI||40033
Blumenau|BR||286326
Bo|SL||170690
Boa Vista|BR||202300
Boaco|NI||21572
Bobo Dioulasso|BF||346035
Bocaiuva|BR||22528
Bodaybo|RU||15933
Bodø|NO||31384
Boende|CD||24680
Bogor|ID||859000
Bogoroditsk|RU||34884
Bogota|CO||7052830
Bogotol|RU||22560
Bogue|MR||10415
Boise|US|ID|242029
Bojnurd|IR||200312
Boke|GN||116270
Bolgatanga|GH||68304
Boli|CN||83317
Bollnäs|SE||12772
Bolobo|CD||22606
Bologna|IT||429694
Bologoye|RU||21785
Bolu|TR||96489
Bolzano|IT||95442
Bom Jesus da Lapa|BR||40691
Boma|CD||178638
Bombo|UG||48000
Bonao|DO||73269
Bondo|CD||20688
Bondoukou|CI||38502
Bongaree|AU||10328
Bongor|TD||112230
Bonn|DE||496834
Bontang|ID||101691
Boosaaso|SO||46969
Bor|SS||26782
Boralday|KZ||20996
Bordeaux|FR||517422
Bordj Bou Arreridj|DZ||134500
Borisoglebsk|RU||64995
Borlänge|SE||38974
Borovichi|RU||57229
Borujerd|IR||251958
Borzya|RU||29653
Borås|SE||64116
Bose|CN||132942
Bossangoa|CF||45246
Boston|US|MA|2528070
Botosani|RO||113359
Botucatu|BR||94938
Bouafle|CI||60962
Bouake|CI||511151
Bouar|CF||31476
Bougouni|ML||30547
Bouira|DZ||110144
Boulder|US|CO|106898
Boulder City|US|NV|15072
Boulsa|BF||17489
Bourem|ML||28743
Bourges|FR||70164
Bournemouth|GB||295272
Boutilimit|MR||14142
Bowen|AU||10983
Bowling Green|US|KY|61349
Bowling Green|US|OH|33148
Boyarka|RU||35968
Bozeman|US|MT|39050
Bozoum|CF||25440
Bradford|GB||397708
Braga|PT||504326
Braganca|BR||56864
Braganca|PT||34375
Braganca Paulista|BR||126386
Brahmapur|IN||324726
Braila|RO||213569
Brainerd|US|MN|21202
Brandon|CA||27326
Brasilia|BR||3139980
Brasov|RO||293566
Bratislava|SK||398712
Bratsk|RU||133905
Braunschweig|DE||239884
Brazzaville|CG||1259445
Bregenz|AT||26928
Bremen|DE||635705
Bremerhaven|DE||127598
Bremerton|US|WA|82040
Brest|BY||266775
Brest|FR||142914
Breves|BR||46818
Bria|CF||24986
Bridgeport|US|CT|578545
Bridgetown|BB||143865
Brighton|GB||321004
Brikama|GM||136418
Brindisi|IT||96759
Brisbane|AU||1393176
Bristol|GB||492120
Bristol|US|VA|31276
Brits|ZA||81222
Brive|FR||54457
Brno|CZ||378918
Brockville|CA||25172
Broken Hill|AU||17232
Brookings|US|SD|20314
Brooks|CA||13454
Broome|AU||11890
Brovary|UA||77356
Brownsville|US|TX|174707
Brownwood|US|TX|20261
Brugge|BE||131589
Brumado|BR||29300
Brunswick|US|GA|31786
Brusque|BR||81164
Brussels|BE||1381011
Bryan|US|TX|108156
Bryansk|RU||426510
Bua Yai|TH||17550
Bubanza|BI||12728
Bucaramanga|CO||790410
Buchanan|LR||37023
Bucharest|RO||1842097
Budapest|HU||1679000
Budaun|IN||161555
Buea|CM||90088
Buenaventura|CO||246596
Buenos Aires|AR||11862073
Buffalo|US|NY|647778
Bugt|CN||17457
Bugulma|RU||85384
Buguruslan|RU||51877
Buizhou|CN||115893
Bujumbura|BI||331700
Bukama|CD||20900
Bukavu|CD||331084
Bukhara|UZ||283560
Bukittinggi|ID||302855
Bukoba|TZ||85566
Bulandshahr|IN||198612
Bulawayo|ZW||697096
Bulgan|MN||17348
Bullhead City|US|AZ|37989
Bulungu|CD||42310
Bumba|CD||128030
Bunbury|AU||26684
Bundaberg|AU||46062
Bungoma|KE||55962
Bunia|CD||61537
Buon Me Thuot|VN||248460
Bur Safaga|EG||21036
Bur Said|EG||561932
Buraydah|SA||394958
Burdur|TR||66158
Burgas|BG||174254
Burgos|ES||150251
Burhanpur|IN||197233
Buriram|TH||47292
Burley|US|ID|11644
Burlington|US|VT|66204
Burlington|US|IA|27690
Burnie|AU||18490
Burrel|AL||15405
Bursa|TR||1425544
Bururi|BI||20066
Busan|KR||3480000
Busia|UG||47100
Businga|CD||31583
Buta|CD||44195
Butare|RW||77000
Butembo|CD||220512
Butha-Buthe|LS||16330
Butte|US|MT|31478
Butterworth|MY||464622
Butuan|PH||190557
Buurhakaba|SO||29530
Buy|RU||25782
Buynaksk|RU||75800
Buzau|RO||130826
Buzmeyin|TM||40147
Buzuluk|RU||84762
Bydgoszcz|PL||366222
Bytom|PL||425716
Byumba|RW||70593
Bærum|NO||113659
Ca Mau|VN||280766
Caacupe|PY||21696
Cabanatuan|PH||220250
Cabimas|VE||320956
Cabinda|AO||78906
Cabo de Santo Agostinho|BR||144662
Cabo Frio|BR||184980
Cabo San Lucas|MX||39492
Caboolture|AU||26496
Caborca|MX||55126
Cacador|BR||57156
Cacheu|GW||10490
Cachoeira do Sul|BR||61871
Cachoeiro de Itapemirim|BR||174808
Cadillac|US|MI|12178
Cadiz|PH||206105
Cadiz|ES||153932
Caen|FR||150362
Cagayan de Oro|PH||861824
Cagliari|IT||227880
Cahul|MD||48950
Caibarien|CU||25431
Caico|BR||42378
Cairns|AU||132107
Cairo|EG||9813807
Cajabamba|PE||12036
Cajamarca|PE||138832
Calabar|NG||354656
Calabozo|VE||110907
Calais|FR||83317
Calama|CL||134336
Calarasi|RO||71196
Calbayog|PH||55015
Caldera|CL||10259
Caldwell|US|ID|83403
Calgary|CA||1012661
Cali|CO||2216418
Callao|PE||786232
Caloundra|AU||33737
Cam Pha|VN||75926
Cam Ranh|VN||85327
Camabatela|AO||12731
Camacupa|AO||19489
Camaguey|CU||321584
Camana|PE||18695
Camaqua|BR||45112
Cambridge|GB||128488
Cameta|BR||22705
Camiri|BO||19212
Camocim|BR||27794
Campana|AR||77150
Campbell River|CA||29942
Campeche|MX||204048
Campina Grande|BR||383098
Campinas|BR||1911277
Campo Belo|BR||42042
Campo Grande|BR||687723
Campo Maior|BR||24090
Campo Murao|BR||74173
Campoalegre|CO||17058
Campobasso|IT||50762
Campos|BR||378943
Camrose|CA||15747
Can Tho|VN||690299
Canakkale|TR||74667
Cananea|MX||28626
Canas|CR||15365
Canavieiras|BR||26375
Canberra|AU||280866
Cancun|MX||489452
Canela|BR||47167
Canelones|UY||19698
Cangzhou|CN||527681
Caninde|BR||32085
Cankiri|TR||71379
Canoas|BR||466661
Canoinhas|BR||40180
Canton|US|OH|168410
Cao Bang|VN||41112
Cao Lanh|VN||149837
Cap-Haitien|HT||208151
Capanema|BR||45831
Cape Coast|GH||139266
Cape Coral|US|FL|117388
Cape Girardeau|US|IL|38166
Cape Town|ZA||2823929
Capenda-Camulemba|AO||79842
Capitao Poco|BR||32704
Caracarai|BR||11368
Caracas|VE||2400340
Caratinga|BR||47518
Carazinho|BR||49145
Carbondale|US|IL|28473
Cardenas|MX||15331
Cardiff|GB||603750
Carlisle|GB||69270
Carlsbad|US|NM|25240
Carmelo|UY||15114
Carnot|CF||32298
Carora|VE||121750
Carpina|BR||118134
Carson City|US|NV|53767
Cartagena|CO||887000
Cartagena|ES||166276
Cartago|CO||123170
Cartago|CR||111770
Caruaru|BR||238732
Carupano|VE||119188
Casa Grande|US|AZ|38396
Casablanca|MA||3162954
Cascavel|BR||229300
Caserta|IT||164744
Casma|PE||27421
Casper|US|WY|56149
Castanhal|BR||125314
Castello|ES||176360
Castelo Branco|PT||33479
Castries|LC||24298
Castro|BR||38418
Castro|CL||25184
Catalao|BR||53646
Catamarca|AR||162586
Catanduva|BR||105238
Catania|IT||482908
Catanzaro|IT||90541
Cauquenes|CL||24155
Caxias|BR||134640
Caxias do Sul|BR||377580
Caxito|AO||15666
Cayambe|EC||27232
Cayenne|GF||57180
Cebu|PH||806817
Cedar City|US|UT|25372
Cedar Rapids|US|IA|149338
Ceerigaabo|||165000
Celaya|MX||344799
Centralia|US|WA|16994
Ceres|BR||18658
Cerrillos|AR||11498
Cerro de Pasco|PE||108071
Ceske Budejovice|CZ||97452
Ceuta|ES||78674
Chabahar|IR||56544
Chacabuco|AR||26645
Chachapoyas|PE||23128
Chachoengsao|TH||49741
Chaghcharan|AF||15000
Chaguaramas|VE||12500
Chainat|TH||15469
Chaiyaphum|TH||55191
Chake Chake|TZ||35822
Chalatenango|SV||29271
Chalkida|GR||63200
Chaman|PK||88568
Chamdo|CN||93140
Champasak|LA||12994
Champoton|MX||25722
Chanaral|CL||13543
Chancay|PE||18601
Chandigarh|IN||946686
Chandrapur|IN||461734
Changchun|CN||2860210
Changde|CN||993390
Changhua|TW||493294
Changling|CN||46704
Changping|CN||372410
Changsha|CN||2338969
Changting|CN||87458
Changwon|KR||1081499
Changyon|KP||44176
Changzhi|CN||706000
Changzhou|CN||1138009
Chanthaburi|TH||94950
Chaoyang|CN||440150
Chaozhou|CN||424787
Chapadinha|BR||29808
Chapayevsk|RU||88656
Charata|AR||18297
Charikar|AF||53676
Charleroi|BE||272750
Charleston|US|SC|254295
Charleston|US|WV|87113
Charlotte|US|NC|943574
Charlottesville|US|VA|61314
Charlottetown|CA||36848
Chascomus|AR||21054
Chattanooga|US|TN|206572
Chau Doc|VN||70239
Chauk|MM||85016
Cheboksary|RU||444028
Chelyabinsk|RU||1018802
Chemnitz|DE||274932
Chengde|CN||377629
Chengdu|CN||4036718
Chennai|IN||5745532
Chenzhou|CN||251018
Cheongju|KR||719420
Cherbourg|FR||60991
Cheremkhovo|RU||51686
Cherepanovo|RU||15094
Cherepovets|RU||265606
Cherkasy|UA||285694
Cherkessk|RU||101153
Chernihiv|UA||293656
Chernivtsi|UA||267250
Chernogorsk|RU||39816
Chernyakhovsk|RU||42356
Chester|GB||83286
Chetumal|MX||144464
Cheyenne|US|WY|64185
Chhatrapati Sambhajinagar|IN||95929
Chiang Mai|TH||299082
Chiang Rai|TH||97942
Chiayi|TW||387106
Chicago|US|IL|5915976
Chiclayo|PE||587084
Chico|US|CA|83226
Chicoutimi|CA||53940
Chifeng|CN||811827
Chihuahua|MX||750634
Chilecito|AR||20343
Chililabombwe|ZM||69698
Chillan|CL||149874
Chilliwack|CA||51942
Chilpancingo|MX||173818
Chimaltenango|GT||82370
Chimbote|PE||333406
Chimboy|UZ||34278
Chimoio|MZ||242538
Chinandega|NI||132705
Chincha Alta|PE||138608
Chingola|ZM||165290
Chinhoyi|ZW||52812
Chiniot|PK||201781
Chipata|ZM||82455
Chiquimula|GT||41521
Chiquinquira|CO||49634
Chirala|IN||170000
Chirchiq|UZ||155094
Chiredzi|ZW||17816
Chiromo|MW||25235
Chisinau|MD||662064
Chistopol|RU||52232
Chita|RU||293154
Chitipa|MW||11118
Chitre|PA||44024
Chittagong|BD||4224611
Chitungwiza|ZW||331071
Chivilcoy|AR||43719
Chlef|DZ||449167
Cholpon Ata|KG||14086
Choluteca|HN||87650
Choma|ZM||42324
Chon Buri|TH||221340
Chone|EC||40379
Chongjin|KP||499807
Chongju|KP||85417
Chongqing|CN||5214014
Chosica|PE||44572
Chota|PE||13452
Choybalsan|MN||33376
Christchurch|NZ||295352
Christiansted|VI|VI|32543
Chukai|MY||63536
Chulucanas|PE||60435
Chumphon|TH||70760
Chuncheon|KR||218128
Chuquicamata|CL||11941
Chur|CH||35361
Chusovoy|RU||61159
Chuxiong|CN||254370
Ciego de Avila|CU||122344
Cienaga|CO||109741
Cienfuegos|CU||146550
Cilacap|ID||1174964
Cincinnati|US|OH|971191
Cirebon|ID||254298
Ciudad Altamirano|MX||24533
Ciudad Bolivar|VE||317972
Ciudad Camargo|MX||35904
Ciudad Constitucion|MX||37606
Ciudad del Carmen|MX||148752
Ciudad del Este|PY||320872
Ciudad Guayana|VE||634318
Ciudad Guzman|MX||90480
Ciudad Hidalgo|MX||59574
Ciudad Juárez|MX||1343000
Ciudad Madero|MX||165412
Ciudad Mante|MX||78300
Ciudad Obregon|MX||273082
Ciudad Valles|MX||112234
Ciudad Victoria|MX||272412
Civitavecchia|IT||55674
Clarksburg|US|WV|22502
Clarksville|US|TN|122115
Cleburne|US|TX|32263
Clermont-Ferrand|FR||185866
Cleveland|US|OH|1169757
Cliza|BO||12235
Clovis|US|NM|33478
Cluj-Napoca|RO||299444
Coari|BR||51898
Coatzacoalcos|MX||259001
Coban|GT||59284
Cobija|BO||35511
Coburg|DE||51478
Cochabamba|BO||804138
Codo|BR||83288
Coeur d'Alene|US|ID|34514
Coffeyville|US|KS|10955
Coffs Harbour|AU||48961
Coihaique|CL||43221
Coimbatore|IN||1327912
Coimbra|PT||97856
Cojutepeque|SV||48411
Colider|BR||27139
Colima|MX||175261
Colinas|BR||13562
College Station|US|TX|120000
Collipulli|CL||11308
Cologne|DE||983698
Colombo|LK||217000
Colon|PA||170488
Colon|CU||40677
Colonia del Sacramento|UY||21714
Colorado Springs|US|CO|427272
Columbia|US|SC|257186
Columbia|US|MO|244754
Columbia|US|TN|74866
Columbus|US|OH|1003418
Columbus|US|GA|202225
Comayagua|HN||64963
Comendador|DO||35901
Comilla|BD||389411
Como|IT||167438
Comodoro Rivadavia|AR||123291
Compostela|MX||15192
Conakry|GN||1494000
Conceicao do Araguaia|BR||27115
Concepcion|CL||550864
Concepcion|PY||53620
Concepcion del Uruguay|AR||48275
Concord|US|NH|42646
Concordia|AR||132760
Concordia|BR||46124
Conroe|US|TX|41643
Conselheiro Lafaiete|BR||102926
Constanta|RO||285112
Constantine|DZ||527638
Constitucion|CL||26902
Contamana|PE||16403
Conway|US|AR|56760
Coos Bay|US|OR|23685
Copenhagen|DK||602481
Copiapo|CL||117316
Coquimbo|CL||159082
Coral Gables|US|FL|98700
Coral Springs|US|FL|185548
Cordoba|ES||300512
Cordoba|MX||177483
Cork|IE||162852
Corner Brook|CA||19742
Cornwall|CA||47602
Coro|VE||184098
Coroata|BR||34129
Coronel|CL||78594
Coronel Bogado|PY||14297
Coronel Oviedo|PY||69694
Coronel Suarez|AR||20713
Corovode|AL||14046
Corpus Christi|US|TX|249978
Corrientes|AR||339945
Corriverton|GY||11787
Corum|TR||168544
Corumba|BR||70036
Corvallis|US|OR|54866
Cotabato|PH||229476
Cotonou|BJ||726292
Cottbus|DE||94910
Cottica|SR||24605
Cotui|DO||41641
Council Bluffs|US|IA|80284
Courtenay|CA||28946
Coventry|GB||348292
Covilha|PT||21219
Covington|US|KY|313064
Cozumel|MX||67634
Cradock|ZA||32898
Craiova|RO||301144
Cranbourne|AU||249955
Cranbrook|CA||17990
Crateus|BR||40338
Crato|BR||164150
Crestview|US|FL|19552
Criciuma|BR||183086
Cristalina|BR||25628
Crotone|IT||59314
Cruzeiro do Sul|BR||56862
Cuamba|MZ||68204
Cuauhtemoc|MX||84968
Cucuta|CO||721772
Cuddalore|IN||158569
Cuenca|EC||281921
Cuernavaca|MX||591552
Cuiaba|BR||603144
Cuilapa|GT||16484
Culiacan|MX||695734
Cumana|VE||287693
Cumberland|US|MD|20832
Curanilahue|CL||22352
Curepipe|MU||192088
Curico|CL||108074
Curitiba|BR||2291430
Curvelo|BR||45937
Cusco|PE||336661
Cutral Co|AR||47597
Cuttack|IN||580000
Cyangugu|RW||19900
Cáceres|BR||85274
Córdoba|AR||1374468
Da Lat|VN||193698
Da Nang|VN||943534
Daan|CN||84796
Dabola|GN||13057
Dabou|CI||71287
Daegu|KR||2460000
Daejeon|KR||1458165
Dagupan|PH||163676
Dahuk|IQ||620500
Dajabon|DO||16398
Dakar|SN||2540200
Dalandzadgad|MN||13491
Dali|CN||109696
Dalian|CN||2601154
Dallas|US|TX|3004852
Dalnerechensk|RU||25918
Daloa|CI||235410
Dalton|US|GA|45078
Daman|IN||39737
Damanhûr|EG||371350
Damascus|SY||2466000
Damaturu|NG||255895
Dandeldhura|NP||19014
Dandong|CN||750986
Danjiangkou|CN||92008
Danville|US|VA|43176
Daqing|CN||948244
Dar es Salaam|TZ||2814326
Dar'a|SY||122225
Darhan|MN||74738
Darnah|LY||103378
Daru|PG||15214
Darwin|AU||82973
Dasoguz|TM||183962
Datong|CN||1462839
Daugavpils|LV||109970
Davangere|IN||469344
Davao|PH||1307252
Davenport|US|IA|178282
David|PA||96448
Dawei|MM||141498
Dawmat al Jandal|SA||22583
Dawson Creek|CA||10676
Dayr az Zawr|SY||275853
Dayton|US|OH|466067
Daytona Beach|US|FL|140776
De Aar|ZA||18670
Debre Birhan|ET||61509
Debre Markos|ET||65339
Debrecen|HU||217705
Decatur|US|IL|74968
Dedougou|BF||45341
Dedza|MW||15608
Dehra Dun|IN||646322
Del Rio|US|TX|35804
Delano|US|CA|42396
Delemont|CH||11315
Delhi|IN||11779606
Delicias|MX||108876
Demba|CD||17008
Dembi Dolo|ET||27264
Deming|US|NM|15523
Dengzhou|CN||59338
Denizli|TR||342791
Denow|UZ||143134
Denpasar|ID||569134
Denton|US|TX|138952
Denver|US|CO|1930800
Dera Ghazi Khan|PK||236093
Dera Ismail Khan|PK||66676
Derbent|RU||97259
Derzhavinsk|KZ||14852
Des Moines|US|IA|286918
Dese|ET||159929
Detroit|US|MI|2526135
Deva|RO||67802
Devonport|AU||17932
Deyang|CN||152194
Dezful|IR||315482
Dezhou|CN||379555
Dhaka|BD||9899167
Dhamar|YE||191259
Dhanbad|IN||732818
Dhangarhi|NP||92294
Dhule|IN||423026
Diamantina|BR||25184
Diapaga|BF||26013
Dibrugarh|IN||144260
Dickinson|US|ND|15988
Diebougou|BF||12732
Diego de Almagro|CL||18137
Dieppe|FR||39084
Diffa|NE||29468
Dijon|FR||159864
Dikhil|DJ||12043
Dila|ET||47021
Dili|TL||213947
Dimbokro|CI||46468
Dimitrovgrad|RU||121214
Dindigul|IN||200797
Dingzhou|CN||152934
Diourbel|SN||148024
Dire Dawa|ET||250326
Dispur|IN||16140
Diu|IN||23779
Divinopolis|BR||181457
Divo|CI||127867
Diyarbakir|TR||640586
Djelfa|DZ||170901
Djenne|ML||27663
Djibo|BF||22223
Djibouti|DJ||763506
Djougou|BJ||152708
Dnipropetrovsk|UA||949424
Doba|TD||26966
Dobrich|BG||73813
Dodge City|US|KS|25238
Dodoma|TZ||199405
Doha|QA||1090655
Dolbeau|CA||13126
Dolinsk|RU||11792
Dolo Bay|ET||11810
Dolores|AR||21586
Dondo|MZ||75218
Donetsk|UA||874138
Dong Ha|VN||17662
Dong Hoi|VN||110152
Dongguan|CN||4528000
Dongola|SD||26404
Dori|BF||37806
Dortmund|DE||588462
Dosso|NE||46482
Dothan|US|AL|61715
Douala|CM||1622041
Douglas|IM||31036
Douglas|US|AZ|23438
Douglas|US|GA|12159
Douliou|TW||105688
Douma|SY||406912
Dourados|BR||144744
Dover|US|DE|54662
Dover|GB||32270
Drammen|NO||85438
Dresden|DE||552184
Drobeta-Turnu Severin|RO||104462
Drogheda|IE||34987
Drohobych|UA||101838
Drummondville|CA||56806
Dubai|AE||1258174
Dubasari|MD||23254
Dubbo|AU||30468
Dublin|IE||1013988
Dublin|US|GA|19258
Dubrovnik|HR||32711
Dubuque|US|IA|59834
Dudinka|RU||22913
Duisburg|DE||882381
Duitama|CO||96598
Duluth|US|MN|82026
Dumas|US|TX|13552
Dumfries|GB||31044
Dumyat|EG||188149
Dund-Us|MN||26596
Dundalk|IE||38884
Dundee|GB||151014
Dundo|AO||11985
Dunedin|NZ||92438
Dunhua|CN||170357
Dunhuang|CN||139225
Duque de Caxias|BR||842890
Durango|MX||456368
Durango|US|CO|19128
Durazno|UY||33982
Durban|ZA||2729000
Durham|US|NC|257114
Durres|AL||132233
Dushanbe|TJ||882822
Dutse|NG||17129
Dyatkovo|RU||33364
Dzaoudzi|YT||23099
Dzerzhinsk|RU||235458
Dzhankoy|UA||42805
Dzuunharaa|MN||16074
Dzuunmod|MN||17738
Düsseldorf|DE||906196
Eagle Pass|US|TX|39683
East London|ZA||338627
Eau Claire|US|WI|71296
Ebebiyin|GA||24831
Ebolowa|CM||83688
Echuca|AU||13460
Ed Dueim|SD||54826
EdDamer|SD||94398
Edea|CM||109506
Edinburg|US|TX|114574
Edinburgh|GB||470378
Edirne|TR||114424
Edmonton|CA||885196
Edmundston|CA||17894
Eger|HU||56647
Eindhoven|NL||303836
Eirunepe|BR||19462
Eisenstadt|AT||13165
Ekibastuz|KZ||124669
El Arish|EG||153753
El Banco|CO||39628
El Bayadh|DZ||67413
El Carmen de Bolivar|CO||54468
El Cayo|BZ||13451
El Centro|US|CA|41662
El Daba|EG||14212
El Dorado|US|AR|21384
El Faiyum|EG||311582
El Fasher|SD||220906
El Giza|EG||2681863
El Golea|DZ||32049
El Jadida|MA||164010
El Kef|TN||42304
El Kharga|EG||49991
El Manaqil|SD||140062
El Mansura|EG||540247
El Minya|EG||363575
El Obeid|SD||331368
El Oued|DZ||177497
El Paso|US|TX|658331
El Progreso|GT||147197
El Seibo|DO||23547
El Tigre|VE||174220
El Tur|EG||21300
Elazig|TR||271492
Elbasan|AL||132956
Elblag|PL||124332
Eldama Ravine|KE||15052
Eldorado|AR||17365
Eldorado|MX||15750
Eldoret|KE||285914
Elgin|US|IL|244050
Elista|RU||99728
Elk|PL||51312
Elkhart|US|IN|100295
Elko|US|NV|17537
Elmira|US|NY|46201
Embi|KZ||10010
Embu|KE||46771
Emden|DE||49786
Emporia|US|KS|27796
En Nuhud|SD||84624
Encarnacion|PY||251814
Ende|ID||60930
Engels|RU||183221
Enid|US|OK|45964
Ensenada|MX||238751
Entebbe|UG||127414
Enterprise|US|AL|23388
Enugu|NG||688862
Er Rachidia|MA||228489
Erdenet|MN||79647
Erechim|BR||85366
Eregli|TR||86563
Erenhot|CN||19357
Erfurt|DE||189365
Ergun Zuoqi|CN||42849
Erie|US|PA|138992
Ermoupoli|GR||12260
Erymentau|KZ||19655
Erzincan|TR||121717
Erzurum|TR||391804
Esbjerg|DK||68076
Escanaba|US|MI|14970
Escuinapa|MX||28248
Escuintla|GT||105402
Escuintla|MX||58314
Eseka|CM||14102
Esik|KZ||30883
Eskisehir|TR||490644
Esmeraldas|EC||134366
Esquel|AR||20048
Essen|DE||1157802
Estancia|BR||50690
Esteli|NI||102130
Etawah|IN||257448
Eugene|US|OR|195183
Eumseong|KR||10077
Eureka|US|CA|34012
Evanston|US|IL|212243
Evansville|US|IN|144788
Everett|US|WA|291948
Evora|PT||55620
Exeter|GB||108242
Fada Ngourma|BF||33910
Fairbanks|US|AK|43608
Faisalabad|PK||2561798
Falun|SE||36477
Farafangana|MG||14992
Farah|AF||58604
Faranah|GN||14410
Fargo|US|ND|127472
Fargona|UZ||482000
Faribault|US|MN|24004
Faridabad|IN||1394000
Farmington|US|NM|42918
Faro|PT||31259
Fasa|IR||111260
Fatehpur|IN||166480
Fatick|SN||24243
Faya Largeau|TD||13400
Fayetteville|US|NC|184040
Fayetteville|US|AR|108268
Feira de Santana|BR||449194
Felipe Carrillo Puerto|MX||23958
Fengcheng|CN||61469
Fengjie|CN||49168
Fengzhen|CN||85809
Ferkessedougou|CI||57410
Fernandopolis|BR||55587
Ferrara|IT||121754
Ferrenafe|PE||42270
Feyzabad|AF||52490
Fez|MA||983446
Fianarantsoa|MG||175706
Fier|AL||69748
Firozabad|IN||306409
Flagstaff|US|AZ|60780
Flensburg|DE||91884
Flint|US|MI|206235
Florence|IT||935758
Florence|US|SC|43978
Florence|US|AL|40806
Florencia|CO||87599
Flores|GT||29250
Floriano|BR||35923
Florianopolis|BR||568783
Florida|UY|FL|32234
Focsani|RO||92636
Foggia|IT||147028
Fond du Lac|US|WI|48080
Fonte Boa|BR||13974
Forecariah|GN||12358
Formiga|BR||46076
Formosa|AR||202272
Formosa|BR||62586
Forster-Tuncurry|AU||13276
Fort Collins|US|CO|178818
Fort Lauderdale|US|FL|1103782
Fort McMurray|CA||21863
Fort Pierce|US|FL|132984
Fort Portal|UG||42670
Fort Smith|US|AR|87986
Fort St. John|CA||18089
Fort Wayne|US|IN|264793
Fort-de-France|MQ||172622
Fort-Liberte|HT||11465
Fortaleza|BR||2958718
Foshan|CN||785174
Foumban|CM||64399
Foz do Iguacu|BR||366989
Franca|BR||281150
Franceville|GA||41056
Francistown|BW||89180
Frankfort|US|KY|32214
Frankfurt|DE||1787332
Frauenfeld|CH||21979
Fray Bentos|UY||23279
Fredericksburg|US|VA|76848
Fredericton|CA||44525
Frederikshavn|DK||22385
Freeport|US|TX|43762
Freeport|BS||25383
Freetown|SL||420384
Freiburg|DE||235428
Fresnillo|MX||102630
Fresno|US|CA|540768
Fria|GN||23729
Frias|AR||13594
Fribourg|CH||32827
Frolovo|RU||40096
Frontera|MX||15014
Frutal|BR||26797
Ft. Dodge|US|IA|26284
Ft. Myers|US|FL|120810
Ft. Worth|US|TX|1090830
Fuan|CN||81762
Fujin|CN||80092
Fukui|JP||241288
Fukuoka|JP||2092144
Fukushima|JP||278962
Funchal|PT||152807
Funtua|NG||158643
Furth|DE||174934
Fushun|CN||1435323
Fuxin|CN||729525
Fuyang|CN||170023
Fuyu|CN||247804
Fuzhou|CN||1892860
Gaalkacyo|SO||57350
Gabes|TN||164796
Gaborone|BW||183827
Gabu|GW||14430
Gadsden|US|AL|39265
Gafsa|TN||104018
Gagnoa|CI||111188
Gainesville|US|FL|158390
Galati|RO||302622
Galesburg|US|IL|32078
Galle|LK||96298
Gallup|US|NM|21627
Galveston|US|TX|62516
Galway|IE||73140
Gamboma|CG||20877
Ganca|AZ||301700
Gandajika|CD||105770
Gandhinagar|IN||195891
Gangneung|KR||173797
Gangtok|IN||54300
Gannan|CN||46854
Ganzhou|CN||1216134
Gao|ML||87472
Gaoua|BF||28023
Garanhuns|BR||107115
Garbahaarey|SO||12652
Garca|BR||38460
Garden City|US|KS|27494
Gardiz|AF||82680
Garissa|KE||65948
Garoua|CM||365436
Gary|US|IN|335737
Garzon|CO||43027
Gashua|NG||74826
Gatchina|RU||90124
Gavarr|AM||21680
Gawler|AU||15542
Gay|RU||39710
Gaya|IN||423692
Gaya|NE||29394
Gaza|PS||477460
Gaziantep|TR||943262
Gbadolite|CD||35197
Gbarnga|LR||31856
Gdansk|PL||597915
Gdynia|PL||284197
Gedaref|SD||201282
Geelong|AU||149336
Gejiu|CN||142620
Gelendzhik|RU||53112
Gemena|CD||157848
Geneina|SD||161146
General Guemes|AR||19828
General Pico|AR||46483
General Roca|AR||38578
General Santos|PH||744308
Geneva|CH||716192
Genoa|IT||624724
Gent|BE||337914
George|ZA||143915
George Town|MY||1610101
Georgetown|GY||249684
Georgievsk|RU||59158
Gera|DE||103857
Geraldton|AU||27065
Ghardaia|DZ||125480
Gharyan|LY||116014
Ghat|LY||22006
Ghaziabad|IN||1270096
Ghazni|AF||129892
Gibraltar|GI||106814
Giessen|DE||78384
Gifu|JP||405304
Gijon|ES||303712
Gikongoro|RW||15000
Gilgit|PK||124196
Gillette|US|WY|26107
Gimbi|ET||22424
Girardot|CO||121830
Giresun|TR||98864
Girga|EG||115476
Gisborne|NZ||30858
Gisenyi|RW||83623
Gitarama|RW||87613
Gitega|BI||23167
Giurgiu|RO||69067
Giyon|ET||76464
Gjirokaster|AL||23437
Gjøvik|NO||20158
Gladstone|AU||29055
Glasgow|GB||885134
Glazov|RU||93352
Glendale|US|AZ|363360
Glenwood Springs|US|CO|11272
Gliwice|PL||353252
Goba|ET||33197
Gobabis|NA||16321
Gode|ET||71671
Gogrial|SS||44318
Goiana|BR||57764
Goianesia|BR||39218
Goiania|BR||1596598
Gold Coast|AU||429954
Goldsboro|US|NC|42922
Golmud|CN||107092
Goma|CD||144124
Gombe|NG||260312
Gomez Palacio|MX||313952
Gonaives|HT||125820
Gonbad-e Kavus|IR||145699
Gonder|ET||155072
Gorakhpur|IN||674246
Gorgan|IR||262980
Gorno Altaysk|RU||57392
Goroka|PG||29101
Gorontalo|ID||254846
Gottingen|DE||130784
Goulburn|AU||16444
Goulimine|MA||106748
Goure|NE||13292
Governador Valadares|BR||201317
Goya|AR||71274
Goyang|KR||903000
Goycay|AZ||35032
Graaff Reinet|ZA||32958
Grahamstown|ZA||70316
Grajau|BR||30217
Gramsh|AL||11556
Granada|ES||313269
Granada|NI||97314
Grand Bassam|CI||61226
Grand Forks|US|ND|53496
Grand Island|US|NE|45208
Grand Junction|US|CO|75076
Grand Prairie|CA||41154
Grand Rapids|US|MI|361934
Granja|BR||17233
Grants Pass|US|OR|36690
Graz|AT||242780
Great Falls|US|MT|61316
Greeley|US|CO|106142
Green Bay|US|WI|149812
Green River|US|WY|10240
Greenock|GB||59065
Greensboro|US|NC|310328
Greenville|US|SC|203256
Greenville|US|NC|81661
Greenville|US|MS|36540
Greenville|LR||10374
Grenoble|FR||273563
Griffith|AU||11664
Groningen|NL||198941
Grootfontein|NA||19150
Groznyy|RU||221238
Grudziadz|PL||100964
Gryazi|RU||46451
Guadalajara|MX||2919294
Guadalajara|ES||51906
Guaira|BR||28898
Guajara-Miram|BR||51852
Gualeguay|AR||25913
Gualeguaychu|AR||55860
Guamuchil|MX||60986
Guanajuato|MX||95282
Guanambi|BR||45730
Guanare|VE||131964
Guangshui|CN||145886
Guangyuan|CN||325400
Guangzhou|CN||5990912
Guanhaes|BR||16762
Guantanamo|CU||245070
Guapi|CO||13853
Guaranda|EC||23933
Guarapuava|BR||123382
Guaratingueta|BR||154730
Guarda|PT||32111
Guasave|MX||82654
Guasdualito|VE||28288
Guatemala|GT||1009469
Guaxupe|BR||43380
Guayaquil|EC||2233014
Guayaramerin|BO||36008
Guaymas|MX||84496
Gubakha|RU||18716
Gueckedou|GN||221715
Guelma|DZ||123590
Guerrero Negro|MX||13054
Guider|CM||83319
Guiglo|CI||37490
Guilin|CN||818176
Guines|CU||57445
Guiyang|CN||2416816
Gujranwala|PK||1448736
Gujrat|PK||301506
Gulbarga|IN||482546
Gulfport|US|MS|76646
Guliston|UZ||74446
Gulu|UG||144430
Gumushane|TR||32250
Gunsan|KR||243743
Guntur|IN||530577
Gurugram|IN||197340
Gurupi|BR||45596
Guryevsk|RU||31878
Gusau|NG||185925
Gusinoozyorsk|RU||20498
Guwahati|IN||500258
Guymon|US|OK|10844
Gwadar|PK||37632
Gwalior|IN||930229
Gwangju|KR||1428469
Gweru|ZW||164716
Gyangze|CN||10000
Gyeongju|KR||148852
Gympie|AU||11338
Gyor|HU||132173
Gyumri|AM||140278
Gyzlarbat|TM||30229
Gävle|SE||68236
Göteborg|SE||520940
Ha Giang|VN||35526
Ha Tinh|VN||165396
Haapsalu|EE||11805
Haarlem|NL||248774
Hachinohe|JP||225575
Hachioji|JP||579399
Haeju|KP||223314
Hafar al Batin|SA||249194
Hagere Hiywet|ET||39412
Hagerstown|US|MD|58488
Hai Duong|VN||58030
Haifa|IL||639150
Haikou|CN||1606808
Hail|SA||385257
Hailar|CN||221118
Hailun|CN||104848
Haiphong|VN||1285848
Haiya|SD||17409
Hajjah|YE||125918
Hakha|MM||20000
Hakkari|TR||42385
Hakodate|JP||289357
Haldia|IN||200762
Half Way Tree|JM||96494
Halifax|CA||290992
Halmstad|SE||55433
Hamadan|IR||264293
Hamah|SY||439796
Hamamatsu|JP||887242
Hamar|NO||29479
Hamburg|DE||1748058
Hameenlinna|FI||47261
Hamhung|KP||595670
Hami|CN||218960
Hamilton|CA||620501
Hamilton|NZ||112145
Hamilton|BM||32910
Hampton|US|VA|256602
Hancheng|CN||140092
Hancock|US|MI|10322
Handan|CN||1494659
Hanggin Houqi|CN||39954
Hangu|CN||270581
Hangzhou|CN||2442564
Hania|GR||66646
Hannover|DE||618815
Hanoi|VN||2904635
Hanzhong|CN||145986
Haora|IN||2934655
Hapur|IN||242920
Harar|ET||161150
Harare|ZW||1557406
Harbin|CN||3425442
Harlingen|US|TX|86749
Harnosand|SE||17016
Harper|LR|MD|25249
Harrisburg|US|PA|289210
Harrisonburg|US|VA|42132
Harstad|NO||19203
Hartford|US|CT|518510
Hasselt|BE||69222
Hassi Messaoud|DZ||18124
Hastings|NZ||39107
Hat Yai|TH||254825
Hatay|TR||305564
Hathras|IN||126882
Hato Mayor|DO||35999
Hattiesburg|US|MS|53498
Haugesund|NO||36220
Havana|CU||2082458
Havre|US|MT|10266
Hawalli|KW||164212
Hays|US|KS|20638
Hebi|CN||244662
Hechi|CN||3275190
Hefei|CN||1711952
Hegang|CN||657834
Heidelberg|DE||284968
Heihe|CN||54923
Helena|US|MT|33032
Helong|CN||83032
Helsingborg|SE||91164
Helsinki|FI||836728
Hengshui|CN||456356
Hengyang|CN||887801
Herat|AF||439232
Heredia|CR||21947
Hereford|US|TX|15024
Herisau|CH||15438
Hermanus|ZA||16274
Hermosillo|MX||554373
Hervey Bay|AU||25114
Hetauda|NP||158554
Heyuan|CN||269280
Heze|CN||796301
Hickory|US|NC|64898
Hidalgo del Parral|MX||102573
Higuey|DO||123787
Hillerod|DK||28313
Hilo|US|HI|47720
Hims|SY||890202
Hinche|HT||18590
Hindupur|IN||150805
Hinthada|MM||157838
Hinton|CA||10077
Hios|GR||25422
Hirosaki|JP||171700
Hiroshima|JP||1594420
Hisar|IN||423039
Hlotse|LS||47675
Ho|GH||81521
Ho Chi Minh City|VN||4390666
Hoa Binh|VN||102381
Hobart|AU||64285
Hobbs|US|NM|28376
Hof|DE||52696
Hohhot|CN||1250238
Holguin|CU||309640
Homestead|US|FL|60673
Homyel|BY||472338
Hon Quan|VN||40279
Honda|CO||31814
Hong Gai|VN||160490
Hong Kong|HK||5878790
Honiara|SB||66313
Honolulu|US|HI|578828
Hopkinsville|US|KY|31630
Horlivka|UA||337718
Horqueta|PY||13351
Horsham|AU||11986
Hosaina|ET||89300
Hosapete|IN||241926
Hoshiarpur|IN||158142
Hot Springs|US|AR|40826
Hotan|CN||187865
Houma|CN||102400
Houma|US|LA|48196
Houston|US|TX|4053287
Hradec Kralove|CZ||95195
Hrodna|BY||285867
Hsinchu|TW||582778
Hua Hin|TH||33963
Huacho|PE||67510
Huaibei|CN||908020
Huainan|CN||1239328
Huaiyin|CN||909615
Huajuapan de Leon|MX||41766
Hualien|TW||229563
Huamachuco|PE||26302
Huambo|AO||986000
Huancavelica|PE||42982
Huancayo|PE||394695
Huanghua|CN||104243
Huangshi|CN||688090
Huangyan|CN||174580
Huanren|CN||91384
Huanta|PE||15534
Huanuco|PE||153052
Huaraz|PE||74986
Huatabampo|MX||27744
Huaura|PE||30562
Hubballi|IN||841402
Hue|VN||645000
Huehuetenango|GT||82709
Huelva|ES||119732
Huinan|CN||43262
Huizhou|CN||289201
Hulan Ergi|CN||277672
Hulin|CN||42559
Humahuaca|AR||11369
Hun|LY||17352
Hungnam|KP||548702
Huntington|US|WV|66957
Huntsville|US|AL|185474
Huntsville|US|TX|34444
Hurghada|EG||157204
Hutchinson|US|KS|42536
Huzhou|CN||694660
Hwange|ZW||33600
Hyderabad|IN||4986908
Hyderabad|PK||1422665
Hyeson|KP||227461
I-n-Salah|DZ||28632
Iasi|RO||325914
Ibadan|NG||2221285
Ibague|CO||415156
Ibarra|EC||127704
Ibb|YE||234837
Ibri|OM||101640
Ica|PE||263132
Icel|TR||577416
Ico|BR||15820
Idah|NG||71895
Idaho Falls|US|ID|65787
Idlib|SY||115786
Ifakara|TZ||27930
Ife|NG||482365
Iganga|UG||45024
Iguala|MX||110642
Iguape|BR||23602
Iguatu|BR||56638
Ihosy|MG||13902
Ijebu Ode|NG||204501
Ijevan|AM||14737
Ijui|BR||59047
Ikare|NG||899966
Iksan|KR||261545
Ilam|IR||146917
Ilam|NP||17491
Ilave|PE||16033
Ilebo|CD||71126
Ilheus|BR||193060
Iligan|PH||464599
Illapel|CL||24578
Illichivsk|UA||53906
Ilo|PE||53192
Iloilo|PH||387681
Ilorin|NG||701742
Imbituba|BR||28380
Imperatriz|BR||203340
Impfondo|CG||20859
Imphal|IN||244254
Incheon|KR||2550000
Independence|US|MO|130695
Indianapolis|US|IN|1104642
Indore|IN||1931520
Indramayu|ID||123263
Ingolstadt|DE||141992
Inhambane|MZ||94830
Inhumas|BR||36122
Innsbruck|AT||133840
Inongo|CD||30181
Inowroclaw|PL||78302
Inta|RU||12410
International Falls|US|MN|10832
Invercargill|NZ||37136
Inverness|GB||42956
Ioanina|GR||75158
Iowa City|US|IA|81343
Ipatinga|BR||318320
Ipiales|CO||93674
Ipoh|MY||656227
Ipora|BR||23354
Ipswich|GB||139012
Ipu|BR||14480
Iquique|CL||223012
Iquitos|PE||448174
Iraklio|GR||134404
Irapuato|MX||339554
Irati|BR||41602
Irbid|JO||471020
Irbil|IQ||795870
Irece|BR||48080
Iringa|TZ||103290
Irkutsk|RU||572325
Iron Mountain|US|MI|12011
Irvine|US|CA|1611304
Iseyin|NG||98071
Isfahan|IR||1572883
Ishim|RU||60798
Isikul|RU||21136
Isiro|CD||142136
Iskandar|UZ||111634
Iskenderun|TR||228954
Iskitim|RU||60806
Isla Mujeres|MX||12491
Islamabad|PK||690800
Ismailia|EG||470474
Isna|EG||84668
Isparta|TR||161089
Istanbul|TR||10003305
Ita|PY||29774
Itaberaba|BR||31722
Itaberai|BR||18710
Itabuna|BR||213799
Itacoatiara|BR||51509
Itaituba|BR||78532
Itajai|BR||241421
Itamaraju|BR||35055
Itambe|BR||15450
Itanagar|IN||44971
Itanhaem|BR||82722
Itapecuru Mirim|BR||22347
Itapetinga|BR||43224
Itapetininga|BR||120889
Itapeva|BR||55324
Itapipoca|BR||31041
Itauna|BR||70233
Ithaca|US|NY|45544
Itigi|TZ||11534
Itu|BR||228878
Ituiutaba|BR||63978
Itumbiara|BR||65344
Itupiranga|BR||21301
Iturama|BR||21048
Ivano-Frankivsk|UA||222720
Ivanovo|RU||417527
Ivdel|RU||11466
Iwaki|JP||324677
Iwo|NG||208688
Izamal|MX||14570
Izaz|SY||31534
Izhevsk|RU||611230
Izmayil|UA||82840
Izmir|TR||2454909
Izmit|TR||383558
Jabal Ali|AE||55817
Jabalpur|IN||1157584
Jaboatao|BR||681214
Jaboticabal|BR||60780
Jacareacanga|BR||31661
Jacarezinho|BR||33551
Jackson|US|MS|213799
Jackson|US|TN|62638
Jacksonville|US|FL|904954
Jacksonville|US|NC|72652
Jacmel|HT||33563
Jacundá|BR||51375
Jaen|PE||49171
Jaffna|LK||169069
Jaguaquara|BR||30554
Jaguarao|BR||26020
Jaipur|IN||2814379
Jakarta|ID||8832560
Jalal Abad|KG||162300
Jalalabad|AF||401697
Jalapa|GT||45834
Jalingo|NG||103773
Jaltipan|MX||66998
Jamaame|SO||156924
Jamalpur|BD||167900
Jambi|ID||438706
Jamestown|US|NY|37916
Jamestown|US|ND|14954
Jammu|IN||628284
Jamshedpur|IN||958169
Janauba|BR||38641
Janesville|US|WI|65476
Januaria|BR||25753
Jaragua do Sul|BR||128804
Jardim|BR||21252
Jatai|BR||57135
Jau|BR||102566
Jauja|PE||21057
Jawhar|SO||86654
Jayapura|ID||152118
Jaén|ES||92909
Jeddah|SA||2939723
Jefferson City|US|MO|45511
Jeju|KR||361258
Jelgava|LV||64499
Jember|ID||298585
Jena|DE||99942
Jendouba|TN||51408
Jeonju|KR||679948
Jequie|BR||131524
Jeremie|HT||30917
Jerusalem|IL||915150
Jessore|BD||243987
Jhang|PK||341210
Jhansi|IN||619710
Ji-Parana|BR||65016
Jiamusi|CN||784774
Jian|CN||490221
Jiangmen|CN||532419
Jianmen|CN||937875
Jiaohe|CN||90420
Jiaojing|CN||471152
Jiaozuo|CN||687270
Jiaxing|CN||727050
Jiayuguan|CN||135338
Jieshou|CN||141993
Jiexiu|CN||77178
Jihlava|CZ||52010
Jijel|DZ||148000
Jijiga|ET||52508
Jilin|CN||2138988
Jima|ET||128306
Jinan|CN||2433633
Jinchang|CN||141670
Jincheng|CN||520000
Jingdezhen|CN||383932
Jingmen|CN||400000
Jinhua|CN||617529
Jining|CN||818164
Jinja|UG||195660
Jinotega|NI||51073
Jinotepe|NI||29507
Jinshi|CN||178453
Jinxi|CN||1369624
Jinzhou|CN||780134
Jipijapa|EC||28741
Jiujiang|CN||545616
Jiutai|CN||190257
Jixi|CN||684380
Jizan|SA||100397
Jizzax|UZ||193997
Joacaba|BR||31196
Joao Pessoa|BR||803442
Joaquin V. Gonzalez|AR||13376
Jodhpur|IN||958238
Joensuu|FI||53388
Johannesburg|ZA||2730734
Johnson City|US|TN|68070
Johnstown|US|PA|45822
Johor Bahru|MY||838744
Joinville|BR||710738
Joliet|US|IL|362946
Joliette|CA||40066
Jonesboro|US|AR|58322
Joplin|US|MO|60290
Jorhat|IN||69033
Jos|NG||737068
Juan Aldama|MX||13118
Juanjui|PE||27352
Juarez|AR||10609
Juazeiro|BR||95132
Juazeiro do Norte|BR||222861
Juba|SS||111975
Juchitan|MX||62254
Juigalpa|NI||35451
Juiz de Fora|BR||464764
Juliaca|PE||234428
Jullundur|IN||820089
Jundiai|BR||413568
Juneau|US|AK|26172
Junin|AR||66142
Junin|PE||11495
Jutiapa|GT||42506
Juticalpa|HN||35564
Jyekundo|CN||16500
Jyväskylä|FI||91581
Jönköping|SE||86491
Kabale|UG||44600
Kabalo|CD||21851
Kabinda|CD||37366
Kabul|AF||3160266
Kabwe|ZM||188667
Kadoma|ZW||56400
Kadugli|SD||132298
Kaduna|NG||1191296
Kaedi|SN||21656
Kaesong|KP||305334
Kafr el Sheikh|EG||143970
Kafue|ZM||25726
Kaga Bandoro|CF||42674
Kagoshima|JP||536092
Kahama|TZ||35279
Kahemba|CD||45644
Kahramanmaras|TR||374746
Kaifeng|CN||872000
Kaka|TM||28463
Kakamega|KE||63426
Kakata|LR||33945
Kakinada|IN||292923
Kakonko|TZ||16319
Kalachinsk|RU||20506
Kalamata|GR||61466
Kalamazoo|US|MI|128760
Kalasin|TH||55102
Kalemie|CD||176616
Kalgoorlie|AU||32058
Kaliningrad|RU||403226
Kalispell|US|MT|25040
Kalmar|SE||34884
Kaluga|RU||313734
Kalyan|IN||1576614
Kambove|CD||18934
Kamenka|RU||16560
Kamenna Obi|RU||40883
Kamensk Shakhtinskiy|RU||69038
Kamensk Uralskiy|RU||176598
Kamina|CD||101180
Kamloops|CA||68671
Kampala|UG||1386594
Kampene|CD||19720
Kamphaeng Phet|TH||58787
Kampong Cham|KH||72492
Kampong Spoe|KH||33231
Kampong Thum|KH||19951
Kampot|KH||36398
Kamsar|GN||34973
Kamuli|UG||12764
Kamyanets-Podilskyy|UA||107329
Kamyshin|RU||82613
Kananga|CD||614273
Kanash|RU||49012
Kanazawa|JP||505093
Kanchanaburi|TH||63699
Kanchipuram|IN||155029
Kandahar|AF||613871
Kandalaksha|RU||72614
Kandi|BJ||73483
Kandy|LK||111701
Kangaba|ML||17232
Kangar|MY||63869
Kanggye|KP||254522
Kaniama|CD||32946
Kankakee|US|IL|48116
Kankan|GN||110458
Kano|NG||3140000
Kanoya|JP||68514
Kanpur|IN||2992624
Kansas City|US|MO|955272
Kansas City|US|KS|324222
Kansk|RU||94420
Kanye|BW||45774
Kaohsiung|TW||2144392
Kaolack|SN||277812
Kapan|AZ||37724
Kapiri Mposhi|ZM||30078
Kaposvar|HU||88137
Kara Balta|KG||68464
Karabuk|TR||113022
Karachi|PK||11877110
Karaj|IR||1423000
Karakol|KG||63412
Karaman|TR||103620
Karamay|CN||108769
Karasuk|RU||26758
Karbala|IQ||472571
Karema|TZ||14508
Kariba|ZW||23134
Karimnagar|IN||258498
Karlovac|HR||51593
Karlskrona|SE||35212
Karlsruhe|DE||330643
Karlstad|SE||66704
Karnal|IN||225049
Karoi|ZW||13194
Karokh|AF||14388
Karonga|MW||33326
Karpinsk|RU||30438
Karratha|AU||16636
Kars|TR||62793
Kartaly|RU||27107
Karur|IN||76915
Karusi|BI||10705
Kasaji|CD||11969
Kasama|ZM||156500
Kasangulu|CD||22645
Kasese|UG||67269
Kashan|IR||249394
Kashgar|CN||472070
Kashmar|IR||126643
Kasimov|RU||36009
Kasongo|CD||59059
Kasongo-Lunda|CD||18748
Kaspiysk|RU||61452
Kassala|SD||370499
Kassel|DE||242212
Kasserine|TN||76243
Kastamonu|TR||70402
Kasulu|TZ||31218
Kasur|PK||290643
Katerini|GR||50850
Kathmandu|NP||895000
Kati|ML||54908
Katima Mulilo|NA||21748
Katoomba|AU||20334
Katowice|PL||1527362
Katsina|NG||432149
Kattaqorgon|UZ||153248
Kaunas|LT||363844
Kavala|GR||56095
Kavalerovo|RU||17801
Kavaratti|IN||10688
Kavieng|PG||17109
Kawagoe|JP||337931
Kawambwa|ZM||20355
Kawasaki|JP||1372026
Kaya|BF||39623
Kayanza|BI||19443
Kayes|ML||77207
Kayes|CG||60629
Kayseri|TR||562216
Kayunga|UG||21704
Kazan|RU||1013635
Kearney|US|NE|30156
Kebili|TN||19875
Kecskemet|HU||111871
Kediri|ID||235143
Kedougou|SN||18074
Keelung|TW||443604
Keetmanshoop|NA||16824
Keffi|NG||77056
Kelang|MY||917934
Kelo|TD||69378
Kelowna|CA||110208
Keluang|MY||163264
Kem|RU||13829
Kemerovo|RU||470684
Kemi|FI||17060
Kempsey|AU||10681
Kendari|ID||165377
Kendu Bay|KE||91248
Kenema|SL||133918
Kenitra|MA||459178
Kennewick|US|WA|82331
Kenora|CA||10852
Kentau|KZ||55864
Kerch|UA||133972
Keren|ER||148242
Kericho|KE||67300
Kerkira|GR||32760
Kerman|IR||556518
Kermanshah|IR||828313
Kerouane|GN||11317
Keshan|CN||72403
Key West|US|FL|27012
Khabarovsk|RU||562706
Khammam|IN||230671
Khanty Mansiysk|RU||48114
Kharkiv|UA||1338064
Khartoum|SD||3364324
Khaskovo|BG||72805
Kherson|UA||278578
Khiwa|UZ||102659
Khmelnytskyy|UA||322093
Kholmsk|RU||32796
Khomeini Shahr|IR||437138
Khon Kaen|TH||199318
Khorramabad|IR||352512
Khorugh|TJ||21018
Khromtau|KZ||21614
Khujand|TJ||291274
Khujayli|UZ||55200
Khulna|BD||1447670
Khvoy|IR||189049
Kiama|AU||10379
Kibaha|TZ||23651
Kibiti|TZ||15553
Kiboga|UG||14512
Kibungo|RW||46240
Kibuye|RW||48024
Kiel|DE||251092
Kielce|PL||212166
Kiffa|MR||73930
Kigali|RW||802630
Kigoma|TZ||164268
Kikwit|CD||465973
Kilchu|KP||82408
Kilifi|KE||63228
Kilinochchi|LK||64358
Kilis|TR||73320
Kilkenny|IE||21401
Killeen|US|TX|120464
Kilosa|TZ||52558
Kimbe|PG||18847
Kimberley|ZA||153676
Kimchaek|KP||187270
Kimpese|CD||10578
Kimry|RU||50531
Kindia|GN||93511
Kindu|CD||199306
Kineshma|RU||91874
Kingman|US|AZ|33306
Kingsport|US|TN|50710
Kingston|JM||801336
Kingston|CA||108298
Kingston|AU||12652
Kingston upon Hull|GB||297398
Kingstown|VC||37002
Kingsville|US|TX|24560
Kinkala|CG||13882
Kinshasa|CD||6704352
Kipushi|CD||87840
Kirikkale|TR||208554
Kirklareli|TR||58223
Kirksville|US|MO|18083
Kirkuk|IQ||555052
Kirov|RU||33852
Kirovo-Chepetsk|RU||71556
Kirovohrad|UA||243574
Kirovsk|RU||22949
Kirsanov|RU||17001
Kirsehir|TR||94336
Kiruna|SE||13302
Kisangani|CD||558814
Kiselevsk|RU||87164
Kisii|KE||28547
Kislovodsk|RU||132337
Kismaayo|SO||184902
Kisoro|UG||12900
Kissidougou|GN||56957
Kissimmee|US|FL|144590
Kisumu|KE||306047
Kita|ML||26102
Kitakyushu|JP||990286
Kitale|KE||112809
Kitami|JP||103972
Kitchener|CA||413056
Kitgum|UG||32786
Kitwe|ZM||402908
Kizel|RU||21971
Klagenfurt|AT||88588
Klaipeda|LT||191334
Klamath Falls|US|OR|31090
Klerksdorp|ZA||163362
Klin|RU||72221
Klintsy|RU||60885
Knoxville|US|TN|417137
Knysna|ZA||33887
Kobe|JP||1528478
Koblenz|DE||209976
Kochi|IN||1061848
Kochi|JP||323095
Kodinskiy|RU||15670
Koforidua|GH||126460
Kofu|JP||193770
Kogalym|RU||58192
Kogon|UZ||85093
Kohat|PK||247227
Kohima|IN||92113
Kohtla-Jarve|EE||31038
Koidu|SL||45308
Kok Yangak|KG||14523
Kokkola|FI||46714
Koko|NG||25792
Kokomo|US|IN|53674
Kokshetau|KZ||126658
Koktokay|CN||60000
Kolar|IN||135533
Kolda|SN||64038
Kolhapur|IN||655920
Kolkata|IN||9709196
Kollam|IN||394163
Kolomna|RU||130324
Kolpashevo|RU||27876
Kolpino|RU||180938
Kolwezi|CD||418000
Kom Ombo|EG||181874
Komatini|GR||45631
Komatipoort|ZA||10334
Kombissiri|BF||30137
Kompong Chhnang|KH||65817
Komsomolsk na Amure|RU||264374
Kon Tum|VN||76449
Kondopoga|RU||31952
Kondoz|AF||210856
Koneurgench|TM||30700
Kongolo|CD||68572
Konibodom|TJ||155118
Konotop|UA||97672
Kontagora|NG||62144
Konya|TR||718680
Korce|AL||58259
Korhogo|CI||172535
Koriyama|JP||302581
Korla|CN||192919
Korogwe|TZ||47000
Koror|PW||11200
Korosten|UA||68992
Korsakov|RU||33166
Kos|GR||18968
Kosice|SK||210316
Kosti|SD||274463
Kostroma|RU||256956
Koszalin|PL||107450
Kota|IN||795044
Kota Baharu|MY||392450
Kota Kinabalu|MY||492498
Kotabumi|ID||42366
Kotelnich|RU||28016
Kotlas|RU||59530
Kotovsk|RU||31221
Koudougou|BF||85339
Koulamoutou|GA||14344
Koulikoro|ML||13408
Koundara|GN||13990
Koupela|BF||32052
Kourou|GF||22426
Kouroussa|GN||14223
Koutiala|ML||102140
Kouvola|FI||31133
Kovel|UA||68850
Kovrov|RU||153060
Kozhikode|IN||696461
Kpalime|TG||98226
Krabi|TH||31219
Kracheh|KH||19975
Kragujevac|RS||159335
Kraków|PL||755525
Kramatorsk|UA||178902
Krasnoarmeysk|RU||20626
Krasnodar|RU||601192
Krasnokamensk|RU||52308
Krasnokamsk|RU||50382
Krasnoturinsk|RU||64878
Krasnoufimsk|RU||40208
Krasnouralsk|RU||20571
Krasnoyarsk|RU||613605
Kremenchuk|UA||209496
Kribi|CM||31473
Krishnanagar|IN||145926
Kristiansand|NO||58292
Kristianstad|SE||26764
Krong Koh Kong|KH||30285
Kroonstad|ZA||88414
Kropotkin|RU||70518
Kruje|AL||21286
Kryvyy Rih|UA||571644
Ksar El Kebir|MA||207676
Kuala Lipis|MY||15448
Kuala Lumpur|MY||1448000
Kuala Terengganu|MY||317638
Kualakapuas|ID||18512
Kuantan|MY||320462
Kuching|MY||537685
Kudymkar|RU||32010
Kuito|AO||113955
Kukes|AL||17832
Kulob|TJ||96975
Kumamoto|JP||699328
Kumasi|GH||1468576
Kumba|CM||131122
Kumbakonam|IN||139264
Kumbo|CM||89728
Kumertau|RU||48668
Kumi|UG||13000
Kumo|NG||19249
Kundian|PK||35406
Kungur|RU||59912
Kunming|CN||1977337
Kuopio|FI||90502
Kupang|ID||270798
Kupyansk|UA||78870
Kuqa|CN||89802
Kure|JP||196808
Kurgan|RU||329400
Kurnool|IN||351522
Kursk|RU||398742
Kurtamysh|RU||10006
Kushiro|JP||191089
Kuta|ID||22880
Kutahya|TR||168460
Kutaisi|GE||181142
Kuwait|KW||1061532
Kuznetsk|RU||93027
Kwekwe|ZW||80788
Kwinana|AU||18818
Kyakhta|RU||12368
Kyiv|UA||2185754
Kyoto|JP||1632320
Kyrenia|CY||26701
Kyshtym|RU||46268
Kyustendil|BG||49676
Kyzyl|RU||106310
København|DK||1085000
L'Aquila|IT||62202
L'Ariana|TN||97687
La Asuncion|VE||35084
La Barca|MX||34897
La Ceiba|HN||138072
La Coruña|ES||306614
La Crosse|US|WI|69600
La Cruz|MX||11528
La Grande|US|OR|13646
La Grange|US|GA|28887
La Ligua|CL||25761
La Oroya|PE||33345
La Paz|BO||1201400
La Paz|MX||180626
La Paz|HN||17555
La Plata|AR||440388
La Rioja|AR||147130
La Rochelle|FR||76904
La Romana|DO||202472
La Serena|CL||151290
La Union|SV||26807
La Union|CL||22843
La Vega|DO||132812
Laascaanood|||60100
Laayoune|MA||182224
Labasa|FJ||24187
Labe|GN||99612
Labinsk|RU||51594
Ladysmith|ZA||47375
Lae|PG||103654
Lafayette|US|LA|135206
Lafayette|US|IN|98104
Lafia|NG||79470
Laghouat|DZ||108279
Lagos|NG||4733768
Lagos de Moreno|MX||89402
Laguna|BR||32532
Lahad Datu|MY||82966
Lahat|ID||50470
Lahij|YE||44832
Lahore|PK||6443944
Lahti|FI||97508
Lai|TD||19382
Laiwu|CN||124108
Laiyang|CN||209797
Lajes|BR||139972
Lake Charles|US|LA|77065
Lake City|US|FL|20160
Lake Havasu City|US|AZ|55442
Lakeville|US|MN|156151
Lalitpur|NP||191208
Lamas|PE||13098
Lambarene|GA||23012
Lamia|GR||47246
Lampang|TH||180110
Lamphun|TH||14030
Lamu|KE||17435
Lancaster|US|CA|225799
Lancaster|US|PA|209489
Lancaster|US|OH|42356
Lang Son|VN||148000
Langfang|CN||694466
Langsa|ID||117256
Langzhong|CN||60542
Lankaran|AZ||60180
Lansing|US|MI|198822
Lanxi|CN||67011
Lanzhou|CN||2282609
Lao Chi|VN||51854
Laoag|PH||154576
Lapa|BR||19934
Lappeenranta|FI||54516
Larache|MA||114688
Laramie|US|WY|25588
Laranjal do Jari|BR||43344
Laredo|US|TX|322768
Larissa|GR||120122
Larkana|PK||364033
Larnaca|CY||48947
Las Cruces|US|NM|97676
Las Heras|AR||66663
Las Palmas|ES||364718
Las Tunas|CU||179898
Las Vegas|US|NV|1150717
Las Vegas|US|NM|15521
Lashkar Gah|AF||201546
Latacunga|EC||73344
Latur|IN||361680
Launceston|AU||65106
Laurel|US|MS|23366
Lausanne|CH||191226
Lautoka|FJ||55894
Lavras|BR||70436
Lawrence|US|KS|88020
Lawton|US|OK|85796
Lazaro Cardenas|MX||122044
Le Havre|FR||214048
Le Mans|FR||143392
Lebowakgomo|ZA||16852
Lebu|CL||16624
Lecce|IT||122942
Leeds|GB||992062
Leesburg|US|FL|33929
Leeuwarden|NL||108601
Legazpi|PH||320081
Leicester|GB||398611
Leipzig|DE||523750
Leiria|PT||45112
Lenger|KZ||22148
Leninobod|TJ||11468
Leninogorsk|RU||53362
Leninsk Kuznetsky|RU||108048
Lensk|RU||24642
Leo|BF||26884
Leon|MX||1301313
Leon|NI||154490
Leon|ES||135014
Leopoldina|BR||37412
Les Cayes|HT||122728
Leshan|CN||655738
Lesosibirsk|RU||65629
Lesozavodsk|RU||39242
Lethbridge|CA||64594
Leticia|CO||46012
Letpadan|MM||107754
Levin|NZ||18764
Lewiston|US|ME|46689
Lewiston|US|ID|40096
Lexington|US|KY|244972
Lezhe|AL||18695
Lgov|RU||16094
Lhasa|CN||169160
Lhokseumawe|ID||114648
Lianxian|CN||148233
Lianyungang|CN||715600
Liaocheng|CN||226930
Liaoyang|CN||740945
Liaoyuan|CN||485898
Libenge|CD||17402
Liberec|CZ||99972
Liberia|CR||41538
Libertador General San Martin|AR||47559
Librazhd|AL||12691
Libreville|GA||530756
Lichinga|MZ||94334
Lida|BY||99126
Liege|BE||472803
Liepaga|LV||83970
Liestal|CH||12832
Lihue|US|HI|10694
Lijiang|CN||18445
Likasi|CD||428411
Lille|FR||636164
Lillehammer|NO||19319
Lilongwe|MW||646750
Lima|PE||7385117
Lima|US|OH|54135
Limassol|CY||149486
Limbe|CM||142290
Limeira|BR||241071
Limerick|IE||84066
Limoges|FR||146688
Linares|CL||75275
Linares|MX||52350
Linares|ES||49550
Linchuan|CN||241104
Lincoln|US|NE|244146
Lincoln|AR||19924
Linden|GY||28042
Lindi|TZ||27954
Linfen|CN||533283
Lingyuan|CN||806000
Linhai|CN||202348
Linhares|BR||86413
Linjiang|CN||76732
Linkou|CN||66426
Linköping|SE||94112
Linqing|CN||110046
Linxia|CN||368478
Linyi|CN||1176334
Linz|AT||265162
Lipetsk|RU||502144
Lira|UG||127384
Lisala|CD||64270
Lisbon|PT||1664901
Lisburn|GB||12899
Lishui|CN||135862
Lismore|AU||28066
Lithgow|AU||10338
Little Rock|US|AR|227555
Liuhe|CN||67956
Liuzhou|CN||1436030
Liverpool|GB||639972
Livingston|GT||12302
Livingstone|ZM||137342
Livny|RU||52278
Livorno|IT||145016
Ljubljana|SI||284961
Llallagua|BO||28069
Lobatse|BW||50344
Lobito|AO||170733
Lobos|AR||18278
Lodja|CD||68244
Lodwar|KE||17090
Loei|TH||29908
Logan|US|UT|58664
Logrono|ES||123918
Loikaw|MM||17293
Loja|EC||122082
Lokoja|NG||52650
Lokossa|BJ||86971
Lome|TG||1100850
London|GB||7994104
London|CA||340900
Londonderry|GB||82635
Londrina|BR||496035
Long Beach|US|CA|1249196
Long Xuyen|VN||254076
Longjiang|CN||87115
Longview|US|TX|75658
Longview|US|WA|51290
Longxi|CN||355037
Longyan|CN||367896
Lop Buri|TH||42130
Lorca|ES||56542
Loreto|MX||10760
Lorica|CO||46688
Lorient|FR||71532
Los Alamos|US|NM|11997
Los Andes|CL||53135
Los Angeles|US|CA|8097410
Los Angeles|CL||135334
Los Lagos|CL||12813
Los Mochis|MX||231824
Los Teques|VE||303470
Lota|CL||32702
Louangphrabang|LA||77260
Loubomo|CG||97930
Louga|SN||85075
Louisville|US|KY|595820
Lovec|BG||42211
Lowell|US|MA|415074
Luan|CN||1408228
Luanda|AO||3562086
Luanshya|ZM||132679
Lubango|AO||114086
Lubao|CD||26142
Lubbock|US|TX|212344
Lubeck|DE||223798
Lublin|PL||358001
Lubumbashi|CD||1114317
Lucapa|AO||25578
Lucknow|IN||2583506
Ludhiana|IN||1597184
Luebo|CD||17682
Luena|AO||17276
Lufkin|US|TX|38466
Luga|RU||37124
Lugano|CH||65876
Luganville|VU||10634
Luhansk|UA||408931
Lujan|AR||69744
Luleburgaz|TR||67990
Luleå|SE||47094
Lumberton|US|NC|27050
Lumphat|KH||19205
Luohe|CN||417356
Luoyang|CN||1552790
Lupanshui|CN||886256
Lusaka|ZM||1297720
Lusambo|CD||26803
Lushnje|AL||41469
Luton|GB||214814
Lutsk|UA||211980
Luuq|SO||33820
Luwuk|ID||43550
Luxembourg|LU||91972
Luxor|EG||548572
Luzern|CH||163746
Luzhou|CN||1537000
Lvov|UA||760842
Lynchburg|US|VA|84581
Lyon|FR||947658
Lysychansk|UA||118010
Lódz|PL||758000
Lüderitz|NA||14216
M'sila|DZ||125000
Ma'an|JO||50350
Maanshan|CN||1000121
Maastricht|NL||122378
Macae|BR||133083
Macapá|BR||433782
Macara|EC||11748
Macas|EC||20644
Macau|MO||568700
Maceio|BR||1000216
Macenta|GN||42168
Machakos|KE||88448
Machala|EC||205578
Macheng|CN||126366
Machilipatnam|IN||192827
Machiques|VE||44936
Macia|MZ||13095
Mackay|AU||66054
Macon|US|GA|104932
Madang|PG||44721
Madaoua|NE||19954
Madinat ath Thawrah|SY||85590
Madingou|CG||22760
Madison|US|WI|276036
Madisonville|US|KY|20858
Madiun|ID||186099
Madrid|ES||2808718
Madurai|IN||1101954
Mae Sot|TH||45172
Maebashi|JP||313791
Mafetang|LS||54708
Magadan|RU||91222
Magangue|CO||94912
Magdalena|MX||13402
Magdeburg|DE||227378
Magelang|ID||111461
Magnitogorsk|RU||308724
Magong|TW||56435
Magway|MM||111464
Maha Sarakham|TH||51584
Mahabad|IR||153428
Mahajanga|MG||145158
Mahalapye|BW||47608
Mahdia|TN||45977
Mahilyow|BY||343527
Maiduguri|NG||704230
Mainz|DE||184997
Maiquetia|VE||184003
Maitland|AU||10026
Maizuru|JP||62532
Majene|ID||155046
Majuro|MH||22950
Makamba|BI||19642
Makeni|SL||83116
Makhachkala|RU||526470
Makinsk|KZ||20366
Makiyivka|UA||318882
Makkah|SA||1354312
Makokou|GA||15320
Makoua|CG||10335
Makurdi|NG||245368
Malabo|GQ||155963
Malacca|MY||645916
Maladzyechna|BY||96055
Malaga|ES||539382
Malakal|SS||160765
Malang|ID||775858
Malanje|AO||106451
Malargue|AR||11847
Malatya|TR||451690
Malayer|IR||176573
Maldonado|UY||51878
Male|MV||108310
Malegaon|IN||563103
Malindi|KE||81160
Mallawi|EG||179934
Malmö|SE||265448
Mamou|GN||56386
Man|CI||143158
Manacapuru|BR||55780
Manado|ID||449498
Managua|NI||920000
Manama|BH||360697
Mananjary|MG||19841
Manaus|BR||1636622
Manbij|SY||94528
Manchester|GB||1312758
Manchester|US|NH|153222
Mandalay|MM||1167000
Mandali|IQ||16420
Mandera|SO||44480
Mandeville|JM||47115
Mandurah|AU||52866
Mandya|IN||209940
Manga|BF||15173
Mangai|CD||19946
Mangaluru|IN||597010
Mango|TG||40187
Mangochi|MW||68974
Mangyshlak|KZ||147443
Manhattan|US|KS|51289
Manicore|BR||17802
Manila|PH||7088788
Manisa|TR||237700
Manizales|CO||366831
Mankato|US|MN|45732
Mannheim|DE||1337587
Manokwari|ID||63847
Manono|CD||46111
Manpo|KP||186827
Mansa|ZM||31357
Mansa Konko|GM||18672
Mansehra|PK||66486
Mansfield|US|OH|64039
Manta|EC||176941
Manukau|NZ||336142
Manzanillo|CU||107433
Manzanillo|MX||85236
Manzhouli|CN||74214
Manzini|SZ||110537
Mao|DO||48297
Mao|TD||15040
Maoming|CN||1217715
Maputo|MZ||1318806
Maqat|KZ||12169
Mar de Ajo|AR||13610
Mar del Plata|AR||554916
Maraba|BR||166182
Maracaibo|VE||1764650
Maracaju|BR||18156
Maracay|VE||1007000
Maradi|NE||198021
Maragheh|IR||151385
Maralal|KE||20841
Marbella|ES||153070
Mardan|PK||300424
Mardin|TR||64480
Marib|YE||16794
Maribor|SI||101642
Mariehamn|AX||10682
Mariental|NA||12670
Mariestad|SE||14891
Marietta|US|GA|61360
Mariinsk|RU||41344
Marilia|BR||191084
Marinette|US|WI|19170
Maringa|BR||320030
Marion|US|IN|34249
Mariupol|UA||416435
Markala|ML||46162
Maroantsetra|MG||30952
Maroua|CM||260656
Marovoay|MG||16513
Marquette|US|MI|23711
Marrakesh|MA||855648
Marsabit|KE||15910
Marsala|IT||60482
Marseille|FR||1097406
Martapura|ID||164844
Marv Dasht|IR||124429
Mary|TM||146694
Maryborough|AU||18920
Marzuq|LY||49402
Masaka|UG||65373
Masasi|TZ||31550
Masaya|NI||130113
Mascara|DZ||108230
Maseru|LS||239840
Mashhad|IR||2318126
Masindi|UG||31486
Masjed Soleyman|IR||132586
Mason City|US|IA|27327
Massawa|ER||142564
Masterton|NZ||16720
Masvingo|ZW||76300
Matadi|CD||212986
Matagalpa|NI||106514
Matamoros|MX||451394
Matanzas|CU||135303
Matara|LK||68244
Mataram|ID||409042
Mataro|ES||149826
Matehuala|MX||63624
Mathura|IN||330511
Matola|MZ||503368
Matruh|EG||82756
Matsue|JP||150527
Matsumoto|JP||217796
Matsuyama|JP||525089
Maturin|VE||357708
Maues|BR||27518
Maumere|ID||75942
Maun|BW||47059
Mavinga|AO||30000
Mawlamyine|MM||400249
Maxixe|MZ||112882
May Pen|JM||89948
Mayaguez|PR||184993
Mayda Shahr|AF||35008
Maykop|RU||143377
Mazabuka|ZM||57874
Mazar-e Sharif|AF||365432
Mazatenango|GT||54392
Mazatlan|MX||361460
Mazatlán|MX||469217
Mazyr|BY||100936
Mbabane|SZ||83178
Mbaiki|CF||43566
Mbala|ZM||18384
Mbale|UG||247084
Mbalmayo|CM||53502
Mbandaka|CD||229590
Mbanza-Congo|AO||42201
Mbanza-Ngungu|CD||141950
Mbarara|UG||83700
Mbeya|TZ||261856
Mbombela|ZA||184839
Mbuji-Mayi|CD||1084880
Mbulu|TZ||10421
McAlester|US|OK|19894
McAllen|US|TX|243291
Mchinji|MW||18305
Medan|ID||1932986
Medani|SD||308540
Medea|DZ||145864
Medellin|CO||2648490
Medenine|TN||61705
Medford|US|OR|89082
Medicine Hat|CA||58382
Medina|SA||1010000
Medinipur|IN||169127
Mednogorsk|RU||27274
Meerut|IN||1310592
Megion|RU||47650
Mehtar Lam|AF||17345
Meiganga|CM||54864
Meizhou|CN||279571
Mekele|ET||95856
Meknes|MA||621666
Melbourne|AU||4936000
Melbourne|US|FL|170870
Melilla|ES||107384
Melitopol|UA||135850
Melo|UY||53258
Melton|AU||29750
Melun|FR||144192
Memphis|US|TN|753844
Mendefera|ER||137586
Mendi|PG||21686
Mendoza|AR||827815
Mengzi|CN||303341
Menongue|AO||13030
Merauke|ID||34412
Merced|US|CA|84355
Mercedes|AR||48408
Mercedes|UY||41952
Merida|MX||841088
Merida|VE||275184
Merida|ES||52423
Meridian|US|MS|40864
Meru|KE||47226
Mesa|US|AZ|762218
Messina|IT||224048
Metairie|US|LA|270171
Metz|FR||266550
Mexicali|MX||736138
Mexico City|MX||14919501
Meymaneh|AF||199795
Miahuatlan|MX||16662
Miami|US|FL|2983947
Miami Beach|US|FL|248538
Miandrivazo|MG||11894
Mianyang|CN||830068
Miaoli|TW||120494
Miass|RU||148834
Michurinsk|RU||93364
Middelburg|ZA||124248
Middelburg|NL||46485
Middlesbrough|GB||279374
Midland|US|TX|98142
Miercurea Cuic|RO||40004
Mikhaylovka|RU||57328
Mikkeli|FI||46550
Mikumi|TZ||12471
Milagro|EC||55434
Milan|IT||2125830
Mildura|AU||33324
Millerovo|RU||32726
Milwaukee|US|WI|983590
Minas|UY||39602
Minatitlan|MX||176398
Mindelo|CV||62962
Mineiros|BR||28247
Minna|NG||249038
Minneapolis|US|MN|1491886
Minot|US|ND|37162
Minsk|BY||1691069
Minxian|CN||67826
Miracema|BR||22564
Miri|MY||219958
Mirnyy|RU||30536
Mirput Khas|PK||286046
Mirzapur|IN||239754
Mishan|CN||80459
Miskolc|HU||210197
Misratah|LY||301160
Missoula|US|MT|68010
Mitchell|US|SD|14973
Mitilini|GR||28825
Mito|JP||300215
Mityana|UG||37420
Miyazaki|JP||317794
Mizdah|LY||16380
Mmabatho|ZA||90591
Mo i Rana|NO||19131
Moanda|CD||153915
Moanda|GA||28633
Moatize|MZ||40536
Moba|CD||10006
Mobaye|CF||19431
Mobile|US|AL|221870
Moca|DO||61834
Mocambique|MZ||40700
Mochudi|BW||39700
Mocimboa|MZ||27909
Mocoa|CO||22035
Mocuba|MZ||68984
Modena|IT||175034
Modesto|US|CA|269697
Mogadishu|SO||987694
Mogocha|RU||10636
Mohales Hoek|LS||24992
Mojokerto|ID||112557
Mokpo|KR||264210
Molde|NO||16172
Molepolole|BW||57713
Mollendo|PE||38993
Moloundou|CG||12244
Mombasa|KE||840834
Monaco|MC||36371
Monastir|TN||56473
Monchegorsk|RU||46934
Monclova|MX||216004
Moncton|CA||89051
Mongo|TD||27763
Mongu|ZM||45098
Monroe|US|LA|76674
Monrovia|LR||913331
Mons|BE||91277
Mont-Laurier|CA||11642
Montana|BG|MT|47445
Monte Cristi|DO||16852
Monte Plata|DO||15532
Monte Quemado|AR||11387
Montego Bay|JM||104438
Montemorelos|MX||40167
Montepuez|MZ||49041
Monterey|US|CA|77298
Monteria|CO||273809
Montero|BO||83821
Monterrey|MX||2417437
Montes Claros|BR||300022
Montevideo|UY||759162
Montgomery|US|AL|194492
Montpellier|FR||287753
Montrose|US|CO|18464
Montréal|CA||3017278
Monywa|MM||204116
Moorhead|US|MN|34332
Moose Jaw|CA||31436
Mopti|ML||93270
Moquegua|PE||38610
Moradabad|IN||754070
Moratuwa|LK||188595
Morelia|MX||618552
Morgantown|US|WV|43882
Morioka|JP||294782
Morogoro|TZ||242718
Morombe|MG||16727
Moron|CU||57552
Moron|MN||24608
Morondava|MG||20018
Moroni|KM||85785
Morrinhos|BR||27841
Morshansk|RU||46330
Moscow|RU||10452000
Moshi|TZ||463873
Moss|NO||35696
Mossel Bay|ZA||16743
Mossendjo|CG||24584
Mossoro|BR||202294
Mostaganem|DZ||159177
Mostar|BA||133792
Mosul|IQ||1228467
Motul|MX||21181
Mouila|GA||25234
Moundou|TD||145936
Mount Gambier|AU||21818
Mount Isa|AU||27596
Moyale|KE||20540
Moyeni|LS||24130
Moyo|UG||22434
Moyobamba|PE||46005
Mozdok|RU||43262
Mozhga|RU||43098
Mpanda|TZ||73338
Mpigi|UG||11082
Mpika|ZM||17242
Mpwapwa|TZ||10094
Mt. Hagen|PG||46344
Mtsensk|RU||24500
Mtwara|TZ||91674
Muar|MY||159622
Mubi|NG||214710
Mudangiang|CN||954958
Mudon|MM||120712
Mufulira|ZM||137062
Mugla|TR||44488
Muglad|SD||17344
Mulanje|MW||16483
Mulhouse|FR||163442
Multan|PK||1479615
Mumbai|IN||15834918
Mumbwa|ZM||14408
Munchon|KP||73619
Muncie|US|IN|75388
Munich|DE||1267696
Muramvya|BI||18041
Murcia|ES||368322
Murfreesboro|US|TN|100237
Muriae|BR||76728
Murmansk|RU||271758
Murom|RU||129109
Muroran|JP||125936
Murray Bridge|AU||14186
Mus|TR||80541
Musan|KP||50942
Muscat|OM||660779
Mushie|CD||24014
Musina|ZA||11848
Muskegon|US|MI|70644
Muskogee|US|OK|38996
Musoma|TZ||127138
Mutare|ZW||216785
Muyinga|BI||71076
Muynoq|UZ||13000
Muzaffarnagar|IN||349706
Muzaffarpur|IN||333200
Mwanza|TZ||465372
Mwanza|MW||11379
Mweka|CD||45222
Mwene-Ditu|CD||153328
My Tho|VN||123226
Myeik|MM||220009
Myingyan|MM||152762
Myitkyina|MM||114997
Mykolayiv|UA||352918
Mymensingh|BD||330126
Myrtle Beach|US|SC|37334
Mysuru|IN||877656
Mzimba|MW||19308
Mzuzu|MW||110201
Münster|DE||253612
Nabatiye et Tahta|LB||60000
Naberezhnyye Chelny|RU||461086
Nabeul|TN||115149
Nabire|ID||28834
Nablus|PS||173154
Nacala|MZ||212212
Nacaome|HN||30464
Nacogdoches|US|TX|30691
Nacozari Viejo|MX||11872
Nadym|RU||26723
Naga|PH||458283
Nagano|JP||477244
Nagaoka|JP||187560
Nagasaki|JP||422830
Nagele|ET||11772
Nagercoil|IN||219094
Nagoya|JP||2710640
Nagpur|IN||2341009
Nagua|DO||33862
Naha|JP||611572
Nairobi|KE||2880274
Naivasha|KE||41174
Najran|SA||314091
Nakhodka|RU||159551
Nakhon Nayok|TH||21309
Nakhon Pathom|TH||117927
Nakhon Phanom|TH||44986
Nakhon Ratchasima|TH||271882
Nakhon Sawan|TH||111915
Nakhon Si Thammarat|TH||176586
Nakuru|KE||312315
Naltchik|RU||290333
Nalut|LY||66418
Nam Dinh|VN||243186
Namangan|UZ||599600
Namibe|AO||128130
Nampo|KP||791000
Nampula|MZ||386186
Namtu|MM||48591
Namur|BE||97156
Nan|TH||53576
Nanaimo|CA||82698
Nancha|CN||104570
Nanchang|CN||2110676
Nanchong|CN||2174000
Nancy|FR||187155
Nanded|IN||587136
Nandi|FJ||27329
Nandyal|IN||176996
Nangong|CN||82386
Nanjing|CN||3383005
Nanning|CN||1485394
Nanping|CN||192364
Nantes|FR||357903
Nantong|CN||806626
Nantou|TW||134349
Nanuque|BR||27210
Nanyang|CN||1097766
Nanyuki|KE||34342
Napier|NZ||56787
Naples|IT||1619486
Naples|US|FL|141902
Nara|ML||18459
Narathiwat|TH||57942
Narayanganj|BD||223622
Narva|EE||65707
Narvik|NO||19236
Naryan Mar|RU||19850
Naryn|KG||44004
Nasca|PE||23387
Nashville|US|TN|703926
Nasik|IN||1381248
Nassau|BS||194453
Natal|BR||980588
Natchez|US|MS|20490
National City|US|CA|104291
Natitingou|BJ||65356
Navajoa|MX||116093
Navoi|UZ||172276
Navsari|IN||163000
Nawabganj|BD||142361
Nawabshah|PK||229504
Naxcivan|AZ||79771
Naypyidaw|MM||562412
Nazareth|IL||108130
Nazran|RU||93357
Nazret|ET||345444
Nazyvayevsk|RU||10938
Nchelenge|ZM||15904
Ndjamena|TD||835194
Ndola|ZM||395428
Nebbi|UG||30354
Necochea|AR||70562
Neftekamsk|RU||122170
Nefteyugansk|RU||112632
Nehe|CN||74938
Neiba|DO||22200
Neijiang|CN||1006427
Neiva|CO||318566
Nekemte|ET||73018
Nelidovo|RU||24973
Nellore|IN||541081
Nelson|NZ||37133
Nelson|CA||10796
Nema|MR||127500
Nenjiang|CN||79685
Nepalganj|NP||64400
Nerchinsk|RU||11980
Neryungri|RU||33364
Neuchatel|CH||31270
Neuquen|AR||213824
Nevelsk|RU||16754
Nevers|FR||44958
Nevinnomyssk|RU||134362
Nevsehir|TR||75527
Nevyansk|RU||27035
New Albany|US|IN|78382
New Amsterdam|GY||40956
New Bedford|US|MA|115082
New Braunfels|US|TX|45270
New Delhi|IN||317797
New Glasgow|CA||19884
New Haven|US|CT|707883
New Iberia|US|LA|34985
New London|US|CT|61236
New Orleans|US|LA|527428
New Plymouth|NZ||46290
New Taipei|TW||2821870
New York|US|NY|13524139
Newark|US|NJ|280123
Newcastle|AU||816286
Newcastle|GB||537191
Newport|US|RI|35893
Neyshabur|IR||221314
Nezahualcoyotl|MX||929682
Ngaoundere|CM||134322
Ngara|TZ||10744
Ngorongoro|TZ||10836
Ngozi|BI||21506
Nguigmi|NE||15318
Nguru|NG||82481
Nha Trang|VN||347498
Niagara Falls|US|NY|117567
Niamey|NE||828896
Nice|FR||632810
Nicosia|CY||212376
Nieuw Nickerie|SR||14568
Nigde|TR||91039
Niigata|JP||537534
Nikel|RU||15731
Nikolayevsk na Amure|RU||27113
Nikopol|UA||119110
Nimes|FR||158892
Ninde|CN||189624
Ningan|CN||54636
Ningbo|CN||1321434
Ninh Binh|VN||130517
Nioro du Sahel|ML||14421
Niquelandia|BR||19785
Nis|RS||230444
Niteroi|BR||993920
Niyala|SD||392373
Nizamabad|IN||346972
Nizhenvartovsk|RU||136385
Nizhnekamsk|RU||210363
Nizhneudinsk|RU||41024
Nizhny Novgorod|RU||1246463
Nizhny Tagil|RU||374344
Nizhnyaya Tura|RU||56084
Nizhyn|UA||95894
Nizwa|OM||70430
Njombe|TZ||42018
Nkawkaw|GH||54914
Nkhata Bay|MW||16914
Nkhotakota|MW||42360
Nkongsamba|CM||105069
Nogales|MX||99402
Nogales|US|AZ|20837
Noginsk|RU||172855
Nogliki|RU||10098
Nola|CF||25301
Nong Khai|TH||84057
Nongan|CN||141482
Nonthaburi|TH||258550
Norfolk|US|VA|645336
Norfolk|US|NE|24562
Norilsk|RU||153336
Norman|US|OK|113525
Norrköping|SE||85771
North Battleford|CA||15722
North Bay|CA||45988
North Platte|US|NE|24710
Norwich|GB||184196
Nottingham|GB||565650
Nouadhibou|MR||86738
Nouakchott|MR||701772
Noumea|NC||89742
Nouna|BF||29048
Nova Cruz|BR||22564
Nova Friburgo|BR||162676
Nova Iguacu|BR||844583
Nova Lima|BR||60414
Nova Vicosa|BR||30250
Novara|IT||88966
Novi Sad|RS||220428
Novo Hamburgo|BR||557017
Novo Horizonte|BR||29554
Novoaltaysk|RU||76218
Novocherkassk|RU||159470
Novokuybishevsk|RU||132067
Novokuznetsk|RU||530326
Novomoskovsk|RU||74592
Novorossiysk|RU||229927
Novoshakhtinsk|RU||82770
Novosibirsk|RU||1213100
Novotroitsk|RU||90278
Novozybkov|RU||43052
Novy Urengoy|RU||47358
Nowra|AU||61036
Noyabrsk|RU||110572
Nsanje|MW||21774
Nsukka|NG||111017
Ntcheu|MW||10445
Ntungamo|UG||16400
Nueva Gerona|CU||22915
Nueva Imperial|CL||13322
Nueva Rosita|MX||35746
Nueva San Salvador|SV||124694
Nueve de Julio|AR||26716
Nuevitas|CU||46796
Nuevo Casas Grandes|MX||53091
Nuevo Laredo|MX||255152
Nukualofa|TO||33139
Nukus|UZ||228211
Numan|NG||45173
Nusaybin|TR||120822
Nuuk|GL||14798
Nyagan|RU||46238
Nyahanga|TZ||16092
Nyanza|RW||225209
Nyeri|KE||51084
Nyiregyhaza|HU||146589
Nykoping|SE||27582
Nyunzu|CD||15397
Nzega|TZ||18325
Nzerekore|GN||150424
Nzeto|AO||19706
Nürnberg|DE||618270
Oak Park|US|IL|52261
Oak Ridge|US|TN|30472
Oakland|US|CA|953044
Oaxaca|MX||396647
Ob|RU||32094
Obidos|BR||26278
Obihiro|JP||169614
Obninsk|RU||66236
Obo|CF||12837
Obock|DJ||13142
Obuasi|GH||158986
Ocala|US|FL|95470
Ocana|CO||83402
Oceanside|US|CA|396474
Ocotal|NI||33928
Ocumare del Tuy|VE||130824
Odense|DK||152076
Odessa|UA||847500
Odessa|US|TX|98655
Odienne|CI||34488
Ogbomosho|NG||595064
Ogden|US|UT|227774
Oita|JP||412100
Ojinaga|MX||19804
Okahandja|NA||19691
Okara|PK||223648
Okayama|JP||752872
Okha|RU||25461
Oklahoma City|US|OK|660475
Oktyabrsk|KZ||27284
Oktyabrskiy|RU||87793
Olavarria|AR||65059
Olbia|IT||44341
Oldenburg|DE||163338
Olgiy|MN||31667
Olinda|BR||659554
Olmaliq|UZ||119768
Olomouc|CZ||97829
Olongapo|PH||265829
Olsztyn|PL||179236
Olympia|US|WA|100950
Omagh|GB||18691
Omaha|US|NE|643034
Omaruru|NA||11547
Omdurman|SD||2289428
Ometepec|MX||24036
Omsk|RU||1089202
Omutninsk|RU||29082
Ondo|NG||256444
Ondorhaan|MN||12434
Onega|RU||20448
Ongjin|KP||66721
Ongole|IN||187866
Ongwediva|NA||17343
Onitsha|NG||73374
Ontario|US|OR|11578
Oostanay|KZ||223450
Opobo|NG||34911
Opole|PL||129544
Oradea|RO||210222
Oral|KZ||204894
Oran|DZ||721992
Orange|AU||36708
Orange Walk|BZ||18066
Orangeburg|US|SC|24192
Orangeville|CA||30812
Oranjestad|AW||50888
Ordu|TR||135952
Orekhovo-Zuevo|RU||130124
Orel|RU||329376
Orenburg|RU||530820
Orillia|CA||33830
Oriximina|BR||35300
Orizaba|MX||238340
Orlando|US|FL|778985
Orleans|FR||170725
Ormac|PH||129964
Orodara|BF||18632
Orongen Zizhiqi|CN||40128
Orsha|BY||130276
Orsk|RU||159353
Oruro|BO||227592
Osaka|JP||6943206
Osh|KG||295638
Oshawa|CA||349476
Oshkosh|US|WI|67858
Oshogbo|NG||408245
Osijek|HR||91608
Oskemen|KZ||284350
Oslo|NO||707500
Osnabrück|DE||198865
Osorio|BR||30882
Osorno|CL||144952
Ostrava|CZ||396026
Otar|KZ||11238
Otaru|JP||139260
Otjiwarongo|NA||23020
Otradnyy|RU||46400
Otsu|JP||437802
Ottawa|CA||978564
Ottumwa|US|IA|25288
Oturkpo|NG||68220
Ouagadougou|BF||992228
Ouahigouya|BF||70300
Ouargla|DZ||176271
Oudtshoorn|ZA||62353
Ouesso|CG||26118
Ouezzane|MA||64171
Ouidah|BJ||83503
Oujda|MA||407322
Oulu|FI||132685
Oum el Bouaghi|DZ||100821
Oum Hadjer|TD||11582
Ourense|ES||113095
Ourinhos|BR||96994
Ovalle|CL||72984
Oviedo|ES||223524
Owando|CG||29011
Owen Sound|CA||22625
Owensboro|US|KY|61152
Owerri|NG||215038
Owo|NG||200912
Oxford|GB||173681
Oxford|US|MS|25000
Oyem|GA||37146
Oyo|NG||475016
Oytal|KZ||16247
Ozamis|PH||95444
Pa-an|MM||50000
Paarl|ZA||159792
Pabna|BD||137888
Pacasmayo|PE||34224
Pachuca|MX||310861
Padang|ID||847676
Padangpanjang|ID||44096
Padangsidempuan|ID||183722
Paducah|US|KY|33812
Pagadian|PH||159590
Pago Pago|AS||12038
Paita|PE||47892
Pakalongan|ID||264972
Pakokku|MM||125356
Pakwach|UG||17541
Pakxe|LA||95554
Pala|TD||17835
Palangkaraya|ID||148289
Palapye|BW||27179
Palatka|US|FL|16094
Palatka|RU||12993
Palembang|ID||1595250
Palermo|IT||767588
Pali|IN||208748
Pallisa|UG||30745
Palm Coast|US|FL|45030
Palm Springs|US|CA|216461
Palma|ES||319951
Palma Soriano|CU||85110
Palmas|BR||29794
Palmeira dos Indios|BR||41095
Palmerston North|NZ||66552
Palu|ID||473871
Pamplona|ES||233856
Pamplona|CO||52917
Panaji|IN||65586
Panama City|PA||844584
Panama City|US|FL|68852
Panevežys|LT||122400
Pangkalpinang|ID||99786
Panipat|IN||292808
Panshi|CN||83208
Panuco|MX||33450
Panzhihua|CN||446298
Papasquiaro|MX||11636
Papeete|PF||78856
Paphos|CY||35961
Paracatu|BR||51674
Parachinar|PK||55685
Paracuru|BR||19860
Paragominas|BR||38096
Paragould|US|AR|22886
Paraguari|PY||14480
Paraiso|MX||14168
Parakou|BJ||176303
Paramaribo|SR||238963
Parana|AR||226852
Paranagua|BR||135071
Paranaiba|BR||25278
Parbhani|IN||333978
Pardubice|CZ||97902
Parepare|ID||87776
Parintins|BR||64428
Paris|FR||4957588
Parkersburg|US|WV|46750
Parma|IT||164734
Parnaiba|BR||125699
Parnu|EE||40256
Paro|BT||15000
Parras|MX||23714
Partizansk|RU||40734
Pasadena|US|TX|388768
Pasadena|US|CA|144618
Pasay City|PH||403064
Paso de los Toros|UY||11450
Paso Robles|US|CA|26221
Passau|AT||50000
Passo Fundo|BR||164047
Passos|BR||85136
Pasto|CO||371138
Pasuruan|ID||343161
Paterson|US|NJ|151205
Pathankot|IN||214146
Pathein|MM||216014
Pathum Thani|TH||154412
Pati|ID||122785
Patiala|IN||329224
Pativilca|PE||22744
Patna|IN||1878960
Patos|BR||85720
Patra|GR||159580
Pattani|TH||96816
Paulo Afonso|BR||85350
Pavlodar|KZ||316254
Paysandu|UY||76132
Pec|RS||137332
Pechora|RU||45957
Pecs|HU||171456
Pedernales|DO||11072
Pedreiras|BR||13638
Pedro Juan Caballero|PY||66029
Pekanbaru|ID||705218
Pelotas|BR||299270
Pematangsiantar|ID||275407
Pemba|MZ||109690
Pembroke|CA||15551
Penapolis|BR||44795
Pendleton|US|OR|16669
Penedo|BR||37516
Penonome|PA||20580
Pensacola|US|FL|145320
Penticton|CA||34035
Penza|RU||491943
Penzance|GB||18150
Peoria|US|IL|142622
Perabumulih|ID||83754
Pereira|CO||504434
Pergamino|AR||71448
Perm|RU||924154
Permet|AL||10686
Pernik|BG||80625
Perpignan|FR||128663
Perth|AU||1206108
Perth|GB||39654
Perugia|IT||141998
Pervouralsk|RU||127236
Pescara|IT||215538
Peshawar|PK||1260886
Peshkopi|AL||14848
Petatlan|MX||26474
Peterborough|GB||140141
Peterborough|CA||79752
Petersburg|US|VA|76158
Peto|MX||12924
Petrolina|BR||227818
Petropavlovsk|KZ||214579
Petropavlovsk Kamchatskiy|RU||182270
Petropolis|BR||279381
Petrovsk Zabaykalskiy|RU||20301
Petrozavodsk|RU||248350
Phan Rang|VN||135646
Phan Thiet|VN||248749
Phatthalung|TH||43522
Phayao|TH||20088
Phetchabun|TH||50656
Phetchaburi|TH||68549
Phichit|TH||35760
Philadelphia|US|PA|3504775
Phitsanulok|TH||133722
Phnom Penh|KH||1466000
Phnum Tbeng Meanchey|KH||24380
Phoenix|US|AZ|2436022
Phrae|TH||28254
Phuket|TH||108596
Phyarpon|MM||63177
Piatra-Neamt|RO||102688
Pichilemu|CL||11603
Picos|BR||47694
Piedras Negras|MX||137295
Pierre|US|SD|13734
Pietermaritzburg|ZA||620898
Pijijiapan|MX||19388
Pilar|PY||28435
Pilibhit|IN||131008
Pimenta Bueno|BR||25762
Pimentel|PE||14422
Pinar del Rio|CU||173304
Pinas|EC||16981
Pindamonhangaba|BR||123985
Pine Bluff|US|AR|51472
Pingdingshan|CN||849000
Pingdu|CN||91077
Pingliang|CN||157706
Pingtung|TW||359752
Pingxiang|CN||31109
Pingyi|CN||78254
Pingzhen|TW||201632
Pinheiro|BR||24912
Pinrang|ID||182731
Pinsk|BY||120838
Piracicaba|BR||329530
Piraiévs|GR||320881
Pirapora|BR||55910
Pirassununga|BR||51698
Pires do Rio|BR||21688
Pirgos|GR||22311
Piripiri|BR||32639
Pisa|IT||146515
Pisco|PE||71538
Pita|GN||20052
Pitesti|RO||169345
Pittsburgh|US|PA|1535268
Pittsfield|US|MA|45202
Piura|PE||361199
Pizen|CZ||161043
Placetas|CU||34973
Plast|RU||15480
Plattsburg|US|NY|24234
Play Ku|VN||128562
Pleven|BG||110446
Ploiesti|RO||230696
Plovdiv|BG||319090
Plymouth|GB||239436
Po|BF||17924
Pocatello|US|ID|57327
Pochutla|MX||18780
Pocos de Caldas|BR||125498
Podgorica|ME||141162
Podolsk|RU||250018
Pogradec|AL||35000
Pohang|KR||435266
Pointe-a-Pitre|GP||81888
Pointe-Noire|CG||602440
Poitier|FR||85384
Pokhara|NP||200000
Pol-e Khomri|AF||41029
Polatli|TR||72632
Polatsk|BY||79216
Polevskoy|RU||42706
Polokwane|ZA||171897
Poltava|UA||302218
Polyarnyy|RU||18266
Ponca City|US|OK|24843
Ponce|PR||156484
Pondicherry|IN||227411
Ponta Delgada|PT||40791
Ponta Grossa|BR||271322
Ponta Pora|BR||75047
Ponte Nova|BR||40377
Pontes e Lacerda|BR||22694
Pontiac|US|MI|67994
Pontianak|ID||578808
Popayan|CO||258750
Poplar Bluff|US|MO|18575
Popondetta|PG||25192
Porbandar|IN||186778
Pori|FI||71526
Porlamar|VE||142027
Poronaysk|RU||15555
Port Antonio|JM||14400
Port Arthur|US|TX|54972
Port Augusta|AU||11186
Port Charlotte|US|FL|56806
Port Elizabeth|ZA||830527
Port Harcourt|NG||1020000
Port Lavaca|US|TX|10716
Port Lincoln|AU||12438
Port Louis|MU||371954
Port Macquarie|AU||42070
Port Morant|JM||11536
Port Moresby|PG||267434
Port Pirie|AU||12417
Port Shepstone|ZA||37326
Port Sudan|SD||489725
Port Vila|VU||39970
Port-au-Prince|HT||1616371
Port-De-Paix|HT||34657
Port-Gentil|GA||113000
Port-of-Spain|TT||171982
Portalegre|PT||15581
Portel|BR||10855
Portimao|PT||49856
Portland|US|OR|1207756
Portland|US|ME|99504
Portland|AU||10324
Porto|PT||793316
Porto Alegre|BR||2644870
Porto Santana|BR||68849
Porto Seguro|BR||72031
Porto Uniao|BR||50242
Porto Velho|BR||289534
Porto-Novo|BJ||267084
Portoviejo|EC||191964
Portsmouth|GB||323676
Porvoo|FI||12242
Posadas|AR||334590
Poso|ID||41507
Potchefstroom|ZA||103742
Potenza|IT||69060
Poti|GE||46001
Potiskum|NG||82734
Potosi|BO||160576
Potsdam|DE||181694
Poughkeepsie|US|NY|100670
Pouso Alegre|BR||102518
Poza Rica de Hidalgo|MX||214504
Poznan|PL||597174
Pozo Almonte|CL||10830
Prachin Buri|TH||56178
Prachuap Khiri Khan|TH||33521
Prague|CZ||582044
Praia|CV||101112
Praya|ID||35183
Prayagraj|IN||1137219
Prescott|US|AZ|47587
Presidencia Roque Saenz Pena|AR||75958
Presidente Dutra|BR||30330
Presidente Prudente|BR||199722
Presov|SK||85368
Pretoria|ZA||1338000
Prey Veng|KH||74000
Prijedor|BA||70602
Prince Albert|CA||29644
Prince George|CA||64132
Prince Rupert|CA||14708
Prizren|||157574
Probolinggo|ID||181656
Proddatur|IN||187624
Progreso|MX||33892
Prokopyevsk|RU||242547
Providence|US|RI|663726
Provo|US|UT|231238
Pskov|RU||189980
Pucallpa|PE||304917
Puch'on|KR||866000
Puebla|MX||1793550
Pueblo|US|CO|108244
Puerto Armuelles|PA||22971
Puerto Ayacucho|VE||51622
Puerto Barrios|GT||54878
Puerto Berrio|CO||33194
Puerto Cabello|VE||174000
Puerto Cabezas|NI||38318
Puerto Escondido|MX||15402
Puerto la Cruz|VE||500464
Puerto Limon|CR||74041
Puerto Lopez|CO||12164
Puerto Madryn|AR||61159
Puerto Maldonado|PE||52349
Puerto Montt|CL||167342
Puerto Natales|CL||10393
Puerto Plata|DO||119897
Puerto Princesa|PH||147882
Puerto Quijarro|BO||10392
Puerto Suarez|BO||17273
Puerto Vallarta|MX||183969
Puerto Varas|CL||19569
Pugachev|RU||26690
Pula|HR||60338
Punata|BO||20758
Pune|IN||3803872
Puno|PE||111350
Punta Alta|AR||55970
Punta Arenas|CL||106296
Punta del Este|UY||84140
Puntarenas|CR||46376
Punto Fijo|VE||183260
Puqi|CN||169028
Puri|IN||201026
Purnia|IN||198453
Pursat|KH||32961
Putian|CN||376558
Putrajaya|MY||58982
Puttalan|LK||45661
Puyang|CN||666322
Puyo|EC||24881
Puzi|TW||47042
Pyatigorsk|RU||86246
Pyay|MM||124834
Pyongsan|KP||66260
Pyongyang|KP||2899398
Pyu|MM||37652
Qabala|AZ||11867
Qacha's Nek|ZA||25573
Qairouan|TN||132158
Qal at Bishah|SA||85060
Qalat|AF||12191
Qapshaghay|KZ||40320
Qaraghandy|KZ||378274
Qaratau|KZ||35743
Qarazhal|KZ||17988
Qarshi|UZ||304630
Qasr-e Shirin|IR||11202
Qasserine|TN||80072
Qazvin|IR||399093
Qena|EG||268694
Qingan|CN||53206
Qingdao|CN||2254122
Qinggang|CN||60955
Qingyuan|CN||706717
Qinhuangdao|CN||881359
Qinzhou|CN||173186
Qiqihar|CN||1261682
Qitaihe|CN||397825
Qom|IR||933478
Qomsheh|IR||118301
Qoqon|UZ||271250
Quang Ngai|VN||184626
Quang Tri|VN||72722
Quanzhou|CN||823572
Quarai|BR||18462
Quchan|IR||128642
Queanbeyan|AU||32408
Queenstown|ZA||96274
Quelimane|MZ||179032
Queretaro|MX||786392
Quesada|CR||29208
Quesnel|CA||13788
Quetta|PK||750838
Quetzaltenango|GT||399983
Quezon City|PH||2761720
Qui Nhon|VN||543095
Quibdo|CO||83942
Quiemo|CN||32494
Quillacollo|BO||227052
Quillota|CL||73732
Quincy|US|IL|43420
Quito|EC||1550407
Quixada|BR||30724
Qulan|KZ||10200
Qulsary|KZ||37103
Qunghirot|UZ||57758
Qurghonteppa|TJ||188287
Quzhou|CN||226108
Québec|CA||576386
Qyzylorda|KZ||213260
Raba|ID||106101
Rabat|MA||1680376
Rach Gia|VN||252830
Racine|US|WI|105458
Rafaela|AR||69649
Rafha|SA||64755
Ragusa|IT||67361
Rahim Yar Khan|PK||353203
Raichur|IN||240601
Rajamahendravaram|IN||304804
Rajapalaiyam|IN||338975
Rajbiraj|NP||33061
Rajkot|IN||1179941
Rajshahi|BD||755066
Raleigh|US|NC|789992
Ramallah|PS||24599
Ramechhap|NP||15000
Ramla|IL||63860
Rampur|IN||296418
Rancagua|CL||222982
Ranchi|IN||945227
Rangoon|MM||3694910
Rangpur|BD||285564
Ranong|TH||24561
Rapid City|US|SD|67760
Ras al Khaymah|AE||138399
Rashid|EG||128970
Rasht|IR||544738
Ratchaburi|TH||99722
Ratlam|IN||272036
Ratnapura|LK||47832
Raub|MY||36772
Raurkela|IN||554730
Ravenna|IT||124302
Rawalpindi|PK||1800550
Rawson|AR||25062
Rayevskiy|RU||13578
Rayong|TH||37035
Razgrad|BG||38285
Reading|GB||257752
Recife|BR||2564549
Reconquista|AR||86640
Red Deer|CA||74225
Redding|US|CA|93872
Regensburg|DE||146755
Reggane|DZ||22352
Reggio di Calabria|IT||179034
Regina|CA||176183
Registro|BR||49485
Rehoboth|NA||23298
Reims|FR||177939
Remanso|BR||37945
Rennes|FR||204330
Reno|US|NV|265364
Reo|BF||37535
Requena|PE||17098
Resistencia|AR||368456
Resita|RO||82276
Retalhuleu|GT||36656
Reykjavík|IS||140059
Reynosa|MX||458997
Rezekne|LV||38219
Ribeirao Preto|BR||520774
Riberalta|BO||74014
Richland|US|WA|39940
Richmond|US|VA|551443
Richmond|US|IN|41016
Rida|YE||45233
Ridder|KZ||54710
Riga|LV||723802
Rijeka|HR||156082
Rimnicu Vilcea|RO||107558
Rimouski|CA||35584
Rio Branco|BR||257642
Rio Bueno|CL||13060
Rio Claro|BR||177710
Rio Colorado|AR||11499
Rio Cuarto|AR||135960
Rio de Janeiro|BR||6879088
Rio Gallegos|AR||77183
Rio Grande|BR||143150
Rio Grande|AR||31095
Rio Largo|BR||110966
Rio Negro|BR||44302
Rio Tercero|AR||38050
Rio Verde|MX||59234
Rio Verde|BR||48318
Riobamba|EC||148471
Riohacha|CO||112808
Rivas|NI||31117
Rivera|UY||132232
Riverside|US|CA|297554
Riverton|US|WY|10350
Riviere-du-Loup|CA||16403
Rivne|UA||253261
Riyadh|SA||4335480
Rize|TR||187976
Rizhao|CN||555694
Roanne|FR||56578
Roanoke|US|VA|144670
Rocha|UY||26194
Rochester|US|NY|483177
Rochester|US|MN|102433
Rock Hill|US|SC|77165
Rock Island|US|IL|102056
Rockford|US|IL|204372
Rockhampton|AU||59024
Rocky Mount|US|NC|57179
Rodos|GR||56548
Roebourne|AU||11282
Rohtak|IN||317245
Roi Et|TH||39328
Rolim de Moura|BR||24516
Rome|IT||1687226
Rondonopolis|BR||146794
Rongzhag|CN||52500
Rosario|AR||1094784
Rosario do Sul|BR||28596
Roseau|DM||19954
Roseburg|US|OR|25454
Rosenheim|DE||76488
Roskilde|DK||42284
Roslavl|RU||54299
Rosso|MR||47203
Rostock|DE||200686
Rostov|RU||33578
Roswell|US|NM|45082
Rotorua|NZ||51498
Rotterdam|NL||801600
Rouen|FR||321418
Rouyn-Noranda|CA||24312
Rovaniemi|FI||30085
Roxas|PH||91880
Rreshen|AL||10064
Rubtsovsk|RU||159133
Rudny|KZ||104236
Ruhengeri|RW||86685
Rumbek|SS||17772
Rundu|NA||43485
Rurrenabaque|BO||11749
Ruse|BG||170254
Russas|BR||33614
Rustavi|GE||156770
Rustenburg|ZA||145020
Rutana|BI||20893
Ruteng|ID||44272
Ruyigi|BI||38458
Ruzayevka|RU||44635
Ryazan|RU||502373
Rybinsk|RU||203874
Rzeszow|PL||202034
Rzhev|RU||62830
Saarbrucken|DE||472871
Sabanalarga|CO||65781
Sabaneta|DO||16380
Sabha|LY||100249
Sabinas Hidalgo|MX||26122
Sabzewar|IR||215910
Sacramento|US|CA|1035949
Sadah|YE||105542
Sadiqabad|PK||189876
Safi|MA||320820
Safonovo|RU||44461
Sagaing|MM||78739
Sagar|IN||287786
Saginaw|US|MI|89458
Sagua la Grande|CU||40752
Saharanpur|IN||484873
Sahiwal|PK||235695
Saida|LB||173894
Saida|DZ||134855
Saidpur|BD||232209
Saidu|PK||1860310
Saint Gallen|CH||70572
Saint George's|GD||30538
Saint John|CA||71153
Saint John's|AG||29862
Saint-Etienne|FR||220982
Saint-Georges|CA||26149
Saint-Laurent-du-Maroni|GF||20850
Saint-Louis|MR||198396
Sakakah|SA||128332
Sakarya|TR||286787
Sakata|JP||86508
Sakhon Nakhon|TH||67756
Saki|AZ||63580
Salalah|OM||183508
Salama|GT||40000
Salamanca|MX||168069
Salamanca|ES||160456
Salamanca|CL||16740
Salatiga|ID||174322
Salavat|RU||111648
Salcedo|DO||45299
Saldanha|ZA||37469
Sale|AU||17702
Salekhard|RU||32427
Salem|IN||825698
Salem|US|MA|188982
Salem|US|OR|187966
Salerno|IT||546922
Salgotarjan|HU||39640
Salgueiro|BR||31565
Salima|MW||50616
Salina|US|KS|46877
Salina Cruz|MX||77356
Salinas|US|CA|152738
Salinas|EC||24616
Salinopolis|BR||32384
Salisbury|US|NC|33907
Salsk|RU||54739
Salt Lake City|US|UT|572013
Salta|AR||484646
Saltillo|MX||679286
Salto|UY||102756
Salvador|BR||3081422
Salyan|NP||15000
Salzburg|AT||178274
Samalut|EG||121281
Samana|DO||11432
Samandagi|TR||93638
Samara|RU||996595
Samarinda|ID||473694
Samarqand|UZ||652150
Samarra|IQ||158508
Sambalpur|IN||236870
Sambava|MG||37494
Sampit|ID||79382
Samsun|TR||573722
Samut Prakan|TH||388920
Samut Sakhon|TH||63498
Samut Songkhram|TH||35065
San|ML||33098
San Andres|CO||58257
San Angelo|US|TX|87298
San Antonio|US|TX|1364905
San Antonio|CL||94972
San Antonio de los Banos|CU||37676
San Bernardino|US|CA|973690
San Bernardo|CL||243950
San Borja|BO||19640
San Carlos|VE||77192
San Carlos|NI||13451
San Carlos de Bariloche|AR||91953
San Carlos del Zulia|VE||76935
San Cristobal|VE||342690
San Cristobal|DO||154040
San Cristobal de Las Casas|MX||157828
San Diego|US|CA|1938570
San Felipe|VE||76766
San Felipe|CL||49256
San Felipe|MX||18068
San Fernando|TT||166039
San Fernando|CL||60746
San Fernando|MX||25596
San Fernando de Apure|VE||100740
San Francisco|US|CA|2091036
San Francisco|AR||43231
San Francisco de Macoris|DO||138650
San Francisco Gotera|SV||16152
San Gabriel|EC||15589
San Ignacio|BO||24480
San Jose|US|CA|1281472
San Jose|CR||642862
San Jose|GT||14248
San Jose de Mayo|UY||36462
San Jose del Guaviare|CO||21675
San Juan|PR||1437116
San Juan|AR||433892
San Juan|DO||72950
San Juan De Los Morros|VE||87739
San Juan del Rio|MX||132866
San Lorenzo|PY||385532
San Lorenzo|AR||25834
San Lorenzo|EC||20209
San Luis|AR||308146
San Luis|GT||69623
San Luis Obispo|US|CA|54759
San Luis Potosi|MX||834852
San Marcos|US|TX|58554
San Marcos|GT||25088
San Marino|SM||29290
San Martin|AR||99974
San Martin|CO||12304
San Mateo|US|CA|361806
San Miguel|SV||181722
San Nicolas|AR||117124
San Pablo|PH||224204
San Pedro|AR||55249
San Pedro de las Colonias|MX||53688
San Pedro de Macoris|DO||211020
San Pedro Sula|HN||584778
San Rafael|AR||79524
San Ramon|PE||10599
San Ramon de la Nueva Oran|AR||69462
San Salvador|SV||717904
San Salvador de Jujuy|AR||258739
San Sebastián|ES||270498
San Vicente|SV||37326
San-Pedro|CI||203512
Sanaa|YE||1921926
Sanandaj|IR||331798
Sancti Spiritus|CU||101710
Sandakan|MY||341788
Sandnes|NO||46911
Sanford|US|FL|189374
Sangli|IN||601214
Sangolqui|EC||91848
Sanliurfa|TR||431408
Sanming|CN||104942
Sanniquellie|LR||11415
Santa Ana|BO||234478
Santa Ana|SV||205570
Santa Barbara|US|CA|135021
Santa Barbara|HN||15119
Santa Clara|CU||234900
Santa Cruz|BO||1859530
Santa Cruz|US|CA|101530
Santa Cruz|BR||22004
Santa Cruz de Tenerife|ES||279126
Santa Cruz Del Quiche|GT||23618
Santa Cruz do Sul|BR||109869
Santa Fe|AR||393504
Santa Fe|US|NM|80943
Santa Ines|BR||58512
Santa Lucia|UY||15264
Santa Maria|BR||239212
Santa Maria|US|CA|98092
Santa Maria da Vitoria|BR||13176
Santa Marta|CO||417211
Santa Rita|VE||21095
Santa Rosa|US|CA|193455
Santa Rosa|AR||97694
Santa Rosa|BR||59119
Santa Rosa de Copan|HN||31641
Santa Rosalia|MX||11110
Santa Vitoria do Palmar|BR||21826
Santana do Livramento|BR||87312
Santander|ES||196026
Santarem|BR||209738
Santarem|PT||29385
Santiago|CL||2883306
Santiago|DO||1471008
Santiago|PA||45655
Santiago|PE||10449
Santiago de Compostela|ES||87721
Santiago de Cuba|CU||500964
Santiago del Estero|AR||317550
Santiago Ixcuintla|MX||17078
Santiago Tuxtla|MX||13598
Santo Andre|BR||662373
Santo Angelo|BR||65013
Santo Domingo|DO||1078436
Santos|BR||1060202
Sanya|CN||253721
Sao Borja|BR||48450
Sao Cabriel da Cachoeira|BR||15231
Sao Carlos|BR||175219
Sao Francisco do Sul|BR||24354
Sao Gabriel|BR||41850
Sao Joao da Boa Vista|BR||68666
Sao Joao del Rei|BR||68732
Sao Jose de Ribamar|BR||41521
Sao Jose do Rio Preto|BR||358244
Sao Jose dos Campos|BR||695322
Sao Jose dos Pinhais|BR||472180
Sao Lourenco do Sul|BR||21673
Sao Luiz Gonzaga|BR||27798
Sao Mateus|BR||63376
Sao Paulo|BR||14433148
Sao Tome|ST||72192
Sapele|NG||235424
Sapporo|JP||2202893
Saraburi|TH||70769
Sarajevo|BA||662816
Sarande|AL||15147
Saransk|RU||303304
Sarapul|RU||92622
Sarasota|US|FL|321224
Saratoga Springs|US|NY|41891
Saratov|RU||814586
Sargodha|PK||542603
Sarh|TD||135862
Sari|IR||263432
Sariwon|KP||154942
Sarnia|CA||113585
Sarqan|KZ||61329
Sasebo|JP||224348
Saskatoon|CA||194076
Sasovo|RU||30592
Sassandra|CI||30842
Sassari|IT||102822
Satipo|PE||15532
Satu Mare|RO||112490
Satun|TH||34544
Sault Ste. Marie|US|MI|50174
Saurimo|AO||40907
Savanna-la-Mar|JM||25260
Savannah|US|GA|155848
Savannakhet|LA||75726
Saveh|IR||145384
Savetskaya Gavan|RU||27882
Savonlinna|FI||20234
Sawahlunto|ID||50354
Sayanogorsk|RU||52790
Saywun|YE||68747
Scarborough|GB||70571
Schaffhausen|CH||33863
Schenectady|US|NY|104768
Schwerin|DE||96641
Schwyz|CH||14177
Scottsbluff|US|NE|20172
Scottsdale|US|AZ|15401
Scranton|US|PA|114701
Sdid Bouzid|TN||42098
Seattle|US|WA|1821684
Sechura|PE||15811
Sefra|DZ||51118
Segezha|RU||28961
Segou|ML||107752
Seguela|CI||31880
Sekondi|GH||212560
Selma|US|AL|19553
Semarang|ID||1342042
Semey|KZ||302066
Semnan|IR||117888
Sena Madureira|BR||23354
Senanga|ZM||10005
Sendai|JP||1643781
Senhor do Bonfim|BR||43577
Sennar|SD||103308
Sensuntepeque|SV||23688
Seoul|KR||9796000
Sept-Îles|CA||25686
Serang|ID||164767
Serdobsk|RU||30263
Seremban|MY||336824
Seres|GR||50910
Sergiyev Posad|RU||107048
Serov|RU||91831
Serowe|BW||47996
Serpukhov|RU||131871
Serrinha|BR||52954
Sesheke|ZM||10178
Sete Lagoas|BR||195032
Setif|DZ||274744
Settat|MA||140415
Setubal|PT||117542
Sevastapol|UA||346832
Severnyy|RU||11562
Severobaykalsk|RU||25800
Severodvinsk|RU||182078
Severomorsk|RU||46709
Severouralsk|RU||34819
Seville|ES||957533
Sfax|TN||365164
Sfintu-Gheorghe|RO||60677
Shache|CN||282392
Shadrinsk|RU||67304
Shah Alam|MY||481654
Shahhat|LY||44188
Shahjahanpur|IN||320434
Shahrisabz|UZ||277798
Shahrud|IR||125304
Shakhty|RU||206204
Shalqar|KZ||27256
Shangdu|CN||18831
Shanghai|CN||14797756
Shangqiu|CN||967109
Shangrao|CN||922422
Shangzhi|CN||89700
Shantou|CN||1467486
Shanxian|CN||74459
Shaoguan|CN||674508
Shaowu|CN||56890
Shaoxing|CN||599142
Shaoyang|CN||45617
Shar e Kord|IR||129153
Sharjah|AE||952016
Sharya|RU||32666
Shashemene|ET||100110
Shashi|CN||509390
Shawinigan|CA||41752
Shawnee|US|OK|29160
Shchekino|RU||73394
Shebekino|RU||41302
Sheberghan|AF||74441
Sheboygan|US|WI|51148
Sheffield|GB||922800
Sheikhu Pura|PK||361303
Shemonaikha|KZ||23632
Shendi|SD||120090
Shenyeng|CN||4149596
Shenzhen|CN||4291796
Shepparton|AU||33430
Sherbrooke|CA||134550
Sherman|US|TX|38696
Shibin el Kom|EG||182900
Shieli|KZ||25871
Shihezi|CN||572977
Shijianzhuang|CN||2204737
Shilka|RU||10561
Shillong|IN||364926
Shimanovsk|RU||16574
Shimonoseki|JP||236198
Shinyanga|TZ||93794
Shiraz|IR||1240000
Shishou|CN||177099
Shivamogga|IN||486802
Shiyan|CN||653824
Shizuishan|CN||109824
Shizuoka|JP||686446
Shkoder|AL||122006
Sholapur|IN||1009056
Shostka|UA||91128
Shreveport|US|LA|224099
Shu|KZ||41112
Shuangcheng|CN||118525
Shuangyashan|CN||500000
Shulan|CN||78092
Shumen|BG||75488
Shumerlya|RU||35225
Shuozhou|CN||408068
Shuya|RU||59586
Shuyang|CN||1770000
Shwebo|MM||81758
Shymkent|KZ||439712
Si Racha|TH||94204
Sialkote|PK||477396
Siauliai|LT||132058
Sibay|RU||54696
Sibenik|HR||37112
Sibiti|CG||20950
Sibiu|RO||153730
Sibolga|ID||148513
Sibu|MY||201036
Sibut|CF||26304
Sicuani|PE||20924
Sidi bel Abbes|DZ||200186
Siem Reap|KH||97199
Siena|IT||48731
Siguiri|GN||46880
Siirt|TR||114034
Sikar|IN||318790
Sikasso|ML||185270
Sikonge|TZ||14550
Silchar|IN||152393
Siliana|TN||26960
Siliguri|IN||515574
Silvassa|IN||27359
Simao|CN||162725
Simferopol|UA||305882
Simla|IN||173503
Sin-Ni|KP||19463
Sincelejo|CO||239788
Sing Buri|TH||20046
Singapore|SG||4236614
Singaraja|ID||184126
Singida|TZ||47750
Singkawang|ID||174925
Sinop|TR||34834
Sinuiju|KP||167234
Sion|CH||28045
Sioux City|US|IA|87090
Sioux Falls|US|SD|148030
Siping|CN||528811
Siracusa|IT||123110
Sirjan|IR||171007
Sironko|UG||14100
Sirsa|IN||170884
Sisaket|TH||42856
Sisophon|KH||36760
Sitapur|IN||164435
Sittwe|MM||178388
Sivas|TR||245802
Siwa|EG||23080
Skellefteå|SE||31075
Skien|NO||73330
Skikda|DZ||193942
Skopje|MK||484488
Slantsy|RU||27479
Slatina|RO||78988
Slavgorod|RU||27651
Slavonski Brod|HR||79230
Slidell|US|LA|56019
Sligo|IE||17214
Sliven|BG||87346
Slobodskoy|RU||40662
Slobozia|RO||52693
Slyudyanka|RU||14920
Smara|MA||48149
Smolensk|RU||311954
Sobral|BR||148440
Soc Trang|VN||236961
Sochi|RU||326639
Socorro|CO||21324
Sodo|ET||65737
Sofia|BG||1029914
Sogamoso|CO||120072
Sohag|EG||404710
Sokcho|KR||85430
Soke|TR||72786
Sokode|TG||99726
Sokol|RU||35638
Sokoto|NG||648020
Sol-lletsk|RU||25155
Soledad|CO||520704
Solenzo|BF||10385
Solikamsk|RU||97397
Solnechnogorsk|RU||48043
Solola|GT||45373
Solothurn|CH||14853
Solwezi|ZM||51794
Somoto|NI||20316
Son La|VN||19054
Son Tay|VN||115092
Sonbong|KP||44098
Songea|TZ||120923
Songkhla|TH||48616
Songnam|KR||986968
Songo|AO||10579
Sonipat|IN||250521
Sonson|CO||18024
Sonsonate|SV||139724
Sopore|IN||60726
Sorocaba|BR||561072
Sorong|ID||125535
Sosnogorsk|RU||24270
Sotik|KE||36942
Sotouboua|TG||21054
Soubre|CI||83712
Souk Ahras|DZ||134947
Sousse|TN||245564
South Bend|US|IN|171791
Southampton|GB||384417
Southaven|US|MS|79923
Southend-on-Sea|GB||395993
Sovetsk|RU||40166
Soyo|AO||65329
Spanish Town|JM||297532
Spartanburg|US|SC|81059
Sparti|GR||15842
Spassk Dalniy|RU||44861
Spencer|US|IA|10938
Split|HR||195528
Spokane|US|WA|272484
Spring Hill|US|FL|91888
Springfield|US|MA|287004
Springfield|US|MO|180691
Springfield|US|IL|125345
Springfield|US|OH|74450
Springfield|US|OR|55532
Springs|ZA||211238
Sri Jawewardenepura Kotte|LK||115826
Sri Vijaya Puram|IN||119806
Srinagar|IN||1057928
St. Ann's Bay|JM||13671
St. Augustine|US|FL|44214
St. Charles|US|MO|213140
St. Charles|US|MD|52792
St. Cloud|US|MN|85974
St. George|US|UT|79988
St. John’s|CA||115326
St. Joseph|US|MO|74878
St. Louis|US|MO|1259958
St. Paul|US|MN|509961
St. Petersburg|RU||4023106
St. Petersburg|US|FL|523314
St.-Benoit|RE||23979
St.-Brieuc|FR||52998
St.-Denis|RE||163621
St.-Jerome|CA||66694
Stamford|US|CT|434782
Standerton|ZA||46057
Stara Zagora|BG||128316
Staraya Russa|RU||32592
Starkville|US|MS|25000
Starsy Oskol|RU||200131
State College|US|PA|64880
Stavanger|NO||136999
Stavropol|RU||350796
Steinkjer|NO||11194
Stepanakert|AZ||57473
Sterlitamak|RU||220040
Stillwater|US|OK|45212
Stockholm|SE||1258654
Stockton|US|CA|488506
Stoeng Treng|KH||29665
Stoke|GB||325610
Stralsund|DE||60172
Strasbourg|FR||357408
Strezhevoy|RU||38998
Stuttgart|DE||1775644
Subotica|RS||96704
Suceava|RO||96866
Suchboatar|MN||24235
Sucre|BO||223287
Sudbury|CA||119182
Suez|EG||498230
Suhar|OM||129812
Suihua|CN||250903
Suileng|CN||57456
Suining|CN||1425000
Sukabumi|ID||276414
Sukhothai|TH||10276
Sukhumi|GE||76219
Sukkur|PK||417767
Sullana|PE||114496
Sumbawanga|TZ||76546
Sumbe|AO||29638
Sumenep|ID||84656
Sumqayt|AZ||272154
Sumter|US|SC|27012
Sumy|UA||289801
Sunbury|AU||18678
Sunchales|AR||12655
Sunchon|KP||400629
Sunderland|GB||315450
Sundsvall|SE||60926
Sungai Petani|MY||293671
Sungaipenuh|ID||56773
Sunshine Coast|AU||57216
Sunyani|GH||70299
Superior|US|WI|27474
Supham Buri|TH||53399
Sur|OM||68738
Surabaya|ID||2609829
Surakarta|ID||555308
Surat|IN||3368252
Surat Thani|TH||142414
Surgut|RU||353352
Surigao|PH||64983
Surin|TH||54604
Surt|LY||110756
Suva|FJ||131835
Suwon|KR||1078000
Suzhou|CN||1496546
Svay Rieng|KH||23956
Svendborg|DK||28366
Svetogorsk|RU||22924
Svobodnyy|RU||62318
Swakopmund|NA||27269
Swansea|GB||232611
Swift Current|CA||14804
Sydney|AU||5230330
Sydney|CA||37538
Syktyvkar|RU||230524
Sylhet|BD||237000
Syracuse|US|NY|403874
Syzran|RU||171589
Szczecin|PL||390242
Szeged|HU||176324
Szekesfehervar|HU||122960
Szekszard|HU||34174
Szolnok|HU||92368
Szombathely|HU||94526
São Luís|BR||524692
Tabora|TZ||145894
Tabriz|IR||1304713
Tabuk|SA||501704
Tacheng|CN||49796
Tacloban|PH||234548
Tacna|PE||261042
Tacoma|US|WA|460273
Tacuarembo|UY||53066
Tadjoura|DJ||22193
Tadmur|SY||53063
Taganrog|RU||254960
Tahoua|NE||98190
Taian|CN||1629000
Taibao|TW||34665
Taichung|TW||1835024
Tailai|CN||71308
Tainan|TW||1319156
Taipei|TW||4759522
Taiping|MY||227371
Taitung|TW||142292
Taiyuan|CN||2817738
Taizhou|CN||612356
Taizz|YE||683111
Tak|TH||28648
Takamatsu|JP||329862
Takaoka|JP||124437
Takapuna|NZ||184816
Takeo|KH||15264
Taksimo|RU||10359
Talara|PE||74760
Talas|KG||28646
Talca|CL||186284
Talcahuano|CL||270521
Taldyqorghan|KZ||88380
Tall Afar|IQ||144465
Tallahassee|US|FL|187402
Tallinn|EE||367026
Taloqan|AF||64256
Tamale|GH||342871
Tamanrasset|DZ||71808
Tamazunchale|MX||47108
Tambacounda|SN||89212
Tambov|RU||296208
Tame|CO||25030
Tampa|US|FL|1319232
Tampere|FI||230983
Tampico|MX||578352
Tamuin|MX||11076
Tamworth|AU||35080
Tan An|VN||101150
Tan Tan|MA||63396
Tandil|AR||84800
Tanga|TZ||217156
Tangail|BD||180144
Tangier|MA||719208
Tangshan|CN||1737974
Tanjungpandan|ID||61591
Tanjungpinang|ID||176069
Tanta|EG||404901
Taonan|CN||114715
Taoyuan|TW||451007
Tapachula|MX||209741
Tara|RU||24130
Tarakan|ID||145274
Taranto|IT||148807
Tarawa|KI||25668
Taraz|KZ||332724
Tarbes|FR||53480
Taree|AU||30132
Targoviste|RO||88435
Targu Jiu|RO||97179
Tarija|BO||155513
Tarin Kowt|AF||10000
Tarlac|PH||183930
Tarma|PE||25906
Tarragona|ES||107958
Tarsus|TR||566297
Tartagal|AR||59996
Tartu|EE||90034
Tartus|SY||139374
Tash Komur|KG||19974
Tashkent|UZ||2081014
Tashtagol|RU||21902
Tasikmalaya|ID||271143
Tatabanya|HU||70541
Tataouine|TN||62577
Tatarsk|RU||24182
Tatui|BR||81936
Tatvan|TR||68436
Taua|BR||29188
Taubate|BR||327600
Taunggyi|MM||160115
Taungoo|MM||105590
Taupo|NZ||17480
Tauranga|NZ||84730
Tavda|RU||32401
Tawau|MY||297996
Taxco|MX||53217
Tay Ninh|VN||126370
Tayshet|RU||44975
Taza|MA||170762
Tbilisi|GE||1052628
Tchibanga|GA||19365
Tebessa|DZ||171742
Tebingtinggi|ID||192786
Tecoman|MX||85450
Tecpan|MX||14638
Tecuala|MX||12752
Tefe|BR||48190
Tegal|ID||237084
Tegucigalpa|HN||898424
Tehran|IR||7513154
Tehuacan|MX||239370
Tehuantepec|MX||40082
Tejen|TM||62650
Tekax|MX||20577
Tekirdag|TR||108266
Tel Aviv-Yafo|IL||1745179
Telemaco Borba|BR||53794
Telimele|GN||30311
Teluk Intan|MY||82506
Tema|GH||184970
Temirtau|KZ||167194
Temple|US|TX|58432
Temuco|CL||252015
Tena|EC||24149
Tengchong|CN||126058
Tenkodogo|BF||37883
Tenosique|MX||24950
Teofilo Otoni|BR||86865
Tepelene|AL||11955
Tepic|MX||299686
Teresina|BR||746860
Termiz|UZ||159036
Ternate|ID||144626
Ternopil|UA||240222
Terrace|CA||14772
Terre Haute|US|IN|65150
Tete|MZ||122183
Tetovo|MK||96038
Texarkana|US|AR|52169
Texas City|US|TX|55718
Teziutlan|MX||124308
Tezpur|IN||58851
Thai Binh|VN||210000
Thai Nguyen|VN||415000
Thakhek|LA||51564
Thanh Hoa|VN||197551
Thanjavur|IN||219571
The Hague|NL||953862
Thessaloniki|GR||591145
Thies|SN||293001
Thika|KE||93572
Thimphu|BT||88930
Thiruvananthapuram|IN||869076
Thohoyandou|ZA||156876
Thompson|CA||13097
Thongwa|MM||35992
Thu Dau Mot|VN||244277
Thunder Bay|CA||98354
Thung Song|TH||26038
Tianjin|CN||5473104
Tianshui|CN||649884
Tiarat|DZ||184195
Tibati|CM||22096
Ticul|MX||30400
Tidjikdja|MR||19981
Tidore|ID||60611
Tieli|CN||109228
Tieling|CN||336954
Tierra Amarilla|CL||10733
Tijuana|MX||1464728
Tikhoretsk|RU||62368
Tikhvin|RU||50793
Tikrit|IQ||49534
Tillaberi|NE||13812
Timaru|NZ||23306
Timashevsk|RU||44024
Timbauba|BR||51328
Timbuktu|ML||68872
Timika|ID||26021
Timimoun|DZ||26568
Timisoara|RO||309575
Timmins|CA||33938
Timon|BR||203157
Tindouf|DZ||18270
Tingo Maria|PE||36138
Tirana|AL||658318
Tiraspol|MD||137097
Tirgu Mures|RO||148148
Tiruchirappalli|IN||863242
Tirunelveli|IN||489022
Tirupati|IN||268928
Tiruppur|IN||547272
Tiruvannamalai|IN||138243
Titusville|US|FL|47506
Tizi-Ouzou|DZ||144000
Tizimin|MX||41322
Tiznit|MA||56398
Tlaxcala|MX||296836
Tlaxiaco|MX||18000
Tlimcen|DZ||181059
Toamasina|MG||208300
Tobolsk|RU||87878
Tocache|PE||15822
Tocopilla|CL||22356
Toguchin|RU||20087
Tokar|SD||47726
Tokat|TR||129702
Tokmak|KG||87954
Toktogul|KG||22726
Tokushima|JP||355552
Tokyo|JP||22006300
Tolanaro|MG||16818
Toledo|US|OH|388449
Toledo|ES||53878
Toliara|MG||106278
Tolu|CO||19720
Toluca|MX||1018440
Tolyatti|RU||648622
Tomah|US|WI|10796
Tomakomai|JP||161356
Tomsk|RU||471950
Tongchuan|CN||252930
Tonghua|CN||27227
Tongliao|CN||572555
Tongling|CN||437710
Tongren|CN||104442
Tongue|GN||25531
Tonk|IN||166532
Toowoomba|AU||86711
Topeka|US|KS|126830
Topki|RU||24672
Torbat-e Jam|IR||81753
Toronto|CA||4573710
Tororo|UG||96850
Torreon|MX||834033
Torzhok|RU||45839
Totonicapan|GT||69734
Tottori|JP||142636
Touba|CI||27504
Tougan|BF||17590
Touggourt|DZ||91499
Toulon|FR||263197
Toulouse|FR||640028
Toumodi|CI||39005
Tours|FR||188858
Tovuz|AZ||12626
Townsville|AU||129212
Toyama|JP||329172
Tozeur|TN||37224
Tra Vinh|VN||131360
Trablous|LB||361286
Trabzon|TR||497556
Tralee|IE||24662
Trang|TH||103728
Traralgon|AU||16982
Trat|TH||21590
Traverse City|US|MI|28807
Treinta y Tres|UY||26668
Trelew|AR||93128
Trento|IT||106377
Trenton|US|NJ|225713
Tres Arroyos|AR||34774
Tres Lagoas|BR||64218
Treviso|IT||128726
Trieste|IT||213610
Trincomalee|LK||108420
Trindade|BR||93113
Trinidad|BO||69334
Trinidad|UY||21093
Tripoli|LY||1209199
Tripoli|GR||27766
Trnava|SK||60919
Trois-Rivières|CA||118051
Troitsk|RU||69919
Trollhättan|SE||44532
Tromsø|NO||48900
Trondheim|NO||144336
Troyes|FR||61244
Truc Giang|VN||59442
Trujillo|PE||521046
Trujillo|VE||44232
Tsetserleg|MN||18056
Tshela|CD||19896
Tshikapa|CD||201256
Tskhinvali|GE||26751
Tsu|JP||392484
Tsumeb|NA||13574
Tsuruoka|JP||88052
Tuapse|RU||81690
Tuban|ID||76242
Tubarao|BR||79760
Tubruq|LY||192290
Tucano|BR||16199
Tucson|US|AZ|670954
Tucumán|AR||678804
Tucupita|VE||49704
Tucurui|BR||38472
Tuguegarao|PH||115105
Tukuyu|TZ||77984
Tula|RU||479156
Tulare|US|CA|53006
Tulcan|EC||83000
Tulcea|RO||89382
Tulsa|US|OK|669434
Tulua|CO||164282
Tulun|RU||48407
Tumaco|CO||86713
Tumakuru|IN||353482
Tumbes|PE||105783
Tumen|CN||89220
Tunceli|TR||29062
Tunduma|TZ||27543
Tunis|TN||1570476
Tunja|CO||139446
Tunuyan|AR||22834
Tupa|BR||51798
Tupelo|US|MS|33928
Tupiza|BO||25500
Tuquerres|CO||27082
Turbat|PK||111742
Turbo|CO||42258
Turin|IT||1258632
Turkistan|KZ||86744
Turkmenabat|TM||231666
Turkmenbasy|TM||66722
Turku|FI||175442
Turnovo|BG||53115
Turpan|CN||178864
Tuscaloosa|US|AL|100594
Tuticorin|IN||436094
Tuxpam|MX||58690
Tuxpan|MX||26115
Tuxtla Gutierrez|MX||473719
Tuy Hoa|VN||69596
Tuyen Quang|VN||36430
Tuymazy|RU||61826
Tuzla|BA||143410
Tver|RU||382043
Tweed Heads|AU||33065
Twin Falls|US|ID|42958
Tyler|US|TX|101562
Tynda|RU||33187
Tyumen|RU||460952
Tzaneen|ZA||42100
Tórshavn|FO||14398
Tômbua|AO||40000
Tønsberg|NO||38914
Uba|BR||81698
Ubaitaba|BR||27412
Uberaba|BR||234807
Uberlandia|BR||484862
Ubon Ratchathani|TH||198213
Udachnyy|RU||15266
Udaipur|IN||446260
Udine|IT||107020
Udon Thani|TH||239192
Ufa|RU||969378
Uglegorsk|RU||12140
Uglich|RU||36355
Uige|AO||56788
Uitenhage|ZA||217839
Ujjain|IN||485348
Ujungpandang|ID||1262000
Ukhta|RU||96396
Ukiah|US|CA|21826
Ulaanbaatar|MN||827306
Ulaangom|MN||31940
Ulan Ude|RU||354127
Ulanhot|CN||203870
Ulm|DE||146703
Ulsan|KR||1011932
Ulundi|ZA||13167
Ulyanovsk|RU||571554
Uman|UA||87620
Umeå|SE||76101
Umm al Qaywayn|AE||38531
Umm Ruwaba|SD||36000
Umtata|ZA||108218
Umuahia|NG||264662
Upata|VE||53474
Upington|ZA||62086
Upper Hutt|NZ||34591
Uppsala|SE||130426
Uray|RU||20361
Urbana|US|IL|91792
Urgentch|UZ||126476
Urgut|UZ||73524
Urmia|IR||577307
Uroteppa|TJ||104736
Uruapan|MX||250920
Uruguaiana|BR||97736
Urumqi|CN||1829612
Uryupinsk|RU||37994
Urzhar|KZ||13854
Usak|TR||147190
Ushtobe|KZ||19116
Ushuaia|AR||50484
Usinsk|RU||42914
Usolye Sibirskoye|RU||85012
Ussuriysk|RU||140674
Ust Kut|RU||25388
Ust' Ordynskiy|RU||14538
Ust-Ulimsk|RU||68812
Usti Nad Labem|CZ||94105
Usulutan|SV||51910
Uthai Thani|TH||19233
Utica|US|NY|81870
Utrecht|NL||478224
Utsunomiya|JP||558808
Uttaradit|TH||67472
Uvinza|TZ||52500
Uvira|CD||164353
Uyar|RU||12370
Uyo|NG||495756
Uyuni|BO||11616
Uzhgorod|UA||134355
Uzhur|RU||17424
Vaasa|FI||48930
Vac|HU||35200
Vacaria|BR||47276
Vadodara|IN||1582738
Vaduz|LI||20812
Val d'Or|CA||20625
Valdivia|CL||146509
Valdosta|US|GA|53420
Valenca|BR||56584
Valencia|VE||1569526
Valencia|ES||806652
Valera|VE||142462
Valladolid|ES||299374
Valladolid|MX||44071
Valle de la Pascua|VE||86274
Valledupar|CO||297628
Vallejo|US|CA|133368
Vallenar|CL||37876
Valletta|MT||187608
Valparai|IN||102330
Valparaiso|CL||434969
Valuyki|RU||32045
Van|TR||326262
Vanadzor|AM||89295
Vancouver|CA||1458415
Vancouver|US|WA|343796
Vanimo|PG||11204
Vanino|RU||15986
Vannersborg|SE||21835
Varamin|IR||172215
Varanasi|IN||1258202
Varna|BG||245522
Varzea Grande|BR||242088
Vaslui|RO||69225
Veinticinco de Mayo|AR||18749
Vejle|DK||51177
Velikiy Novgorod|RU||218717
Velikiy Ustyug|RU||32940
Velikiye Luki|RU||93243
Vellore|IN||177081
Velsk|RU||25729
Venado Tuerto|AR||52079
Venice|IT||270816
Ventspils|LV||42764
Veracruz|MX||573638
Vereeniging|ZA||774340
Verkhniy Ufaley|RU||33562
Verkhnyaya Salda|RU||48525
Vernal|US|UT|11176
Vernon|US|TX|11574
Vero Beach|US|FL|51650
Verona|IT||300334
Versailles|FR||85416
Veszprem|HU||62023
Viacha|BO||34776
Viana|BR||15808
Viana Do Castelo|PT||15555
Vibo Valentia|IT||32168
Viborg|DK||32944
Vichuga|RU||38094
Vichy|FR||35088
Vicksburg|US|MS|24670
Victoria|CA||270492
Victoria|US|TX|63126
Victoria|SC||28228
Victoria|AR||20032
Victoria|CL||17990
Victoria Falls|ZW||23964
Victoriaville|CA||37963
Victorville|US|CA|83496
Vicuna|CL||13496
Viedma|AR||54031
Vienna|AT||2065500
Vientiane|LA||662174
Viet Tri|VN||305144
Vigan|PH||48545
Vigo|ES||335848
Vijayawada|IN||1005794
Vila Real|PT||17001
Vila Velha|BR||742414
Vilhena|BR||63231
Viljandi|EE||20309
Villa Angela|AR||30051
Villa Carlos Paz|AR||60256
Villa Constitucion|AR||30282
Villa Hayes|PY||15643
Villa Maria|AR||76701
Villa Union|MX||14563
Villahermosa|MX||395482
Villamontes|BO||18761
Villarica|CL||16818
Villarrica|PY||41157
Villavicencio|CO||348240
Villazon|BO||33734
Vilnius|LT||524698
Vina del Mar|CL||399042
Vinh|VN||514426
Vinh Long|VN||103314
Vinnytsya|UA||349627
Virginia Beach|US|VA|877476
Visalia|US|CA|114700
Visby|SE||22282
Viseu|PT||26364
Vishakhapatnam|IN||1296089
Vitoria|ES||199110
Vitoria da Conquista|BR||272320
Vitsyebsk|BY||333318
Vitória|BR||1008328
Vizianagaram|IN||90276
Vladikavkaz|RU||341000
Vladimir|RU||314336
Vladivostok|RU||586617
Vlore|AL||89508
Voi|KE||28056
Voinjama|LR||26594
Volgodonsk|RU||122434
Volgograd|RU||801828
Volkhov|RU||45366
Volksrust|ZA||25394
Vologda|RU||251692
Volos|GR||97528
Volsk|RU||62027
Volta Redonda|BR||352971
Volzhskiy|RU||306022
Vorkuta|RU||71262
Voronezh|RU||569734
Votkinsk|RU||91248
Voznesensk|UA||43122
Vratsa|BG||68287
Vryburg|ZA||31589
Vryheid|ZA||108364
Vung Tau|VN||229225
Vyazemskiy|RU||14191
Vyazma|RU||49118
Vyborg|RU||97917
Vyshnniy Volochek|RU||50254
Vyska|RU||60356
Västerås|SE||100186
Växjö|SE||53068
Wa|GH||76892
Waco|US|TX|143157
Wadi Halfa|SD||17121
Wafangdian|CN||303218
Wagga Wagga|AU||45549
Wahiawa|US|HI|95336
Wailuku|US|HI|32770
Waingapu|ID||35990
Waitakere|NZ||83400
Wajir|KE||40240
Wakayama|JP||395503
Wakema|MM||45555
Waku Kungo|AO||11520
Walla Walla|US|WA|37864
Walvis Bay|NA||49504
Wamba|CD||82122
Wanganui|NZ||35866
Wangaratta|AU||11370
Wangqing|CN||79825
Wanzhou|CN||1680000
Warangal|IN||1034690
Warri|NG||683064
Warrnambool|AU||29882
Warsaw|PL||1704570
Warwick|AU||10024
Washington, D.C.|US||2445216
Watampone|ID||58953
Waterbury|US|CT|174236
Waterford|IE||49275
Waterloo|US|IA|82092
Watertown|US|NY|30938
Waterville|US|ME|20529
Watsa|CD||17722
Wau|SS||99158
Waukegan|US|IL|144539
Waukesha|US|WI|159012
Wausau|US|WI|56100
Waycross|US|GA|17446
Weifang|CN||973866
Weihai|CN||356425
Weinan|CN||172321
Welkom|ZA||279012
Wellington|NZ||296300
Wenatchee|US|WA|45892
Wenshan|CN||108396
Wenzhou|CN||1607836
West Bend|US|WI|31980
West Palm Beach|US|FL|675522
Wetaskiwin|CA||11562
Wete|TZ||26450
Wewak|PG||21686
Whakatane|NZ||20665
Whangarei|NZ||53300
Wheeling|US|WV|40940
Whitehorse|CA||23274
Whyalla|AU||21102
Wichita|US|KS|378544
Wichita Falls|US|TX|97429
Wiener Neustadt|AT||60622
Wiesbaden|DE||444779
Wilkes Barre|US|PA|99824
Willemstad|CW||146813
Williams Lake|CA||12361
Williamsport|US|PA|43792
Williston|US|ND|12768
Willmar|US|MN|18432
Wilmington|US|NC|126992
Wilmington|US|DE|116206
Winchester|US|VA|39418
Windhoek|NA||265464
Windsor|CA||265068
Winneba|GH||41911
Winnipeg|CA||603688
Winona|US|MN|29758
Winston-Salem|US|NC|237492
Winter Haven|US|FL|68435
Wollongong|AU||201320
Wonju|KR||240898
Wonsan|KP||322425
Woodward|US|OK|12340
Worcester|US|MA|232290
Worcester|ZA||109200
Wroclaw|PL||622471
Wuchuan|CN||23776
Wuhai|CN||218427
Wuhan|CN||5713603
Wuhu|CN||658762
Wukari|NG||74380
Wum|CM||42601
Wuppertal|DE||562998
Wurzburg|DE||151146
Wuwei|CN||493092
Wuxi|CN||1428824
Wuyuan|CN||30057
Wuzhou|CN||354080
Xai-Xai|MZ||128086
Xaignabouri|LA||16200
Xalapa|MX||438667
Xam Nua|LA||38992
Xanthi|GR||49396
Xapeco|BR||154794
Xiamen|CN||1548668
Xian|CN||3617406
Xiangfan|CN||765978
Xiangtai|CN||611739
Xiangtan|CN||2183454
Xiantao|CN||897703
Xianyang|CN||1126000
Xiaogan|CN||160437
Xichang|CN||253390
Xigaze|CN||59314
Xilinhot|CN||116156
Xingyi|CN||539536
Xining|CN||907766
Xinqing|CN||42618
Xinxiang|CN||823300
Xinyang|CN||1411944
Xinyi|CN||962656
Xinyu|CN||505240
Xinzhou|CN||216805
Xique-Xique|BR||18633
Xuanhua|CN||391584
Xuanzhou|CN||866000
Xuchang|CN||449258
Xuzhou|CN||1645096
Yaan|CN||340000
Yacuiba|AR||64811
Yakeshi|CN||107047
Yakima|US|WA|93846
Yako|BF||22904
Yakutsk|RU||220813
Yala|TH||120849
Yalta|UA||76814
Yalutorovsk|RU||31580
Yamagata|JP||263374
Yambio|SS||24420
Yamburg|RU||48488
Yamoussoukro|CI||200514
Yanbu al Bahr|SA||233876
Yancheng|CN||839000
Yandoon|MM||36172
Yangambi|CD||18036
Yangjiang|CN||751182
Yangmei|TW||162511
Yangquan|CN||851802
Yangzhou|CN||539715
Yanji|CN||407848
Yankton|US|SD|14495
Yantai|CN||1417666
Yaounde|CM||1335794
Yaroslavl|RU||571154
Yarumal|CO||35315
Yasothon|TH||21643
Yasuj|IR||96786
Yaynangyoung|MM||104508
Yazd|IR||451924
Ye|MM||50798
Yefremov|RU||44933
Yegoryevsk|RU||87498
Yei|SS||112691
Yekaterinburg|RU||1270488
Yelets|RU||115804
Yellowknife|CA||18658
Yemanzhelinsk|RU||35936
Yen Bai|VN||96540
Yendi|GH||30842
Yeniseysk|RU||15408
Yeosu|KR||302142
Yerevan|AM||1097742
Yevlax|AZ||50014
Yevpatoriya|UA||90588
Yeysk|RU||76592
Yian|CN||39924
Yibin|CN||572056
Yichang|CN||675862
Yichun|CN||443112
Yilan|TW||122916
Yinchuan|CN||657614
Yingkow|CN||693080
Yining|CN||403489
Yirga Alem|ET||36292
Yishan|CN||47062
Yishui|CN||94115
Yitulihe|CN||19645
Yiyang|CN||777304
Yogyakarta|ID||636660
Yokohama|JP||3697894
Yola|NG||92253
Yongzhou|CN||700180
Yopal|CO||61029
York|GB||151574
York|US|PA|128798
Yorkton|CA||14378
Yoro|HN||15774
Yoshkar Ola|RU||301753
Youngstown|US|OH|194765
Yozgat|TR||87881
Ypacarai|PY||23806
Yuba City|US|CA|84324
Yuci|CN||537964
Yueyang|CN||826000
Yulin|CN||637742
Yuma|US|AZ|88402
Yumen|CN||233097
Yunxian|CN||133558
Yurga|RU||72496
Yuxi|CN||250077
Yuzhno Sakhalinsk|RU||174685
Zabid|YE||102547
Zabol|IR||177978
Zacapa|GT||36088
Zacatecas|MX||176522
Zacatecoluca|SV||39613
Zadar|HR||59202
Zagazig|EG||285097
Zaghouan|TN||16911
Zagreb|HR||710746
Zahedan|IR||575434
Zahle|LB||61192
Zakho|IQ||114958
Zalaegerszeg|HU||61898
Zalantun|CN||135128
Zalau|RO||63232
Zamboanga|PH||615312
Zamora|MX||169932
Zamora|EC||11582
Zanesville|US|OH|32514
Zanjan|IR||355012
Zanzibar|TZ||388439
Zaozernyy|RU||33865
Zaozhuang|CN||1164332
Zapala|AR||19152
Zaporizhzhya|UA||600778
Zarafshon|UZ||55292
Zaragoza|ES||548956
Zaranj|AF||49851
Zarate|AR||86192
Zaraza|VE||35280
Zareh Sharan|AF||13737
Zaria|NG||754836
Zarzis|TN||119238
Zaysan|KZ||14199
Zelenodolsk|RU||50338
Zelenokumsk|RU||35220
Zemio|CF||19239
Zenica|BA||151388
Zeya|RU||26999
Zhangjiakou|CN||802820
Zhangye|CN||163478
Zhangzhou|CN||2434800
Zhanjiang|CN||1113895
Zhanyi|CN||652604
Zhaodong|CN||167193
Zhaoqing|CN||420984
Zhaotang|CN||459200
Zharkent|KZ||35459
Zheleznogorsk|RU||94212
Zheleznogorsk Ilimskiy|RU||27291
Zhengzhou|CN||2325062
Zhenjiang|CN||743276
Zhetiqara|KZ||44922
Zhezqazghan|KZ||104357
Zhijiang|CN||113907
Zhob|PK||69446
Zhongli|TW||1001193
Zhosaly|KZ||19024
Zhoukou|CN||377061
Zhuanghe|CN||170947
Zhubei|TW||174003
Zhucheng|CN||881964
Zhuhai|CN||1023000
Zhuozhou|CN||415000
Zhuzhou|CN||894679
Zhytomyr|UA||278581
Zibo|CN||1865385
Zicheng|CN||198212
Zielona Gora|PL||113866
Zigong|CN||897480
Ziguinchor|SN||175747
Zilina|SK||86805
Zima|RU||46781
Zinder|NE||210891
Ziniare|BF||12703
Zlatoust|RU||176285
Zlin|CZ||101894
Zmeinogorsk|RU||10472
Zomba|MW||80932
Zongo|CD||17667
Zonguldak|TR||128574
Zorgo|BF||23892
Zouirat|MR||56345
Zrenjanin|RS||64053
Zug|CH||23435
Zumpango|MX||188994
Zunyi|CN||657646
Zuwarah|LY||123848
Zvishavane|ZW||34558
Zvolen|SK||38276
Zwedru|LR||19460
Zwolle|NL||111805
Zyryanovsk|KZ||47294
Zürich|CH||724865
Ålesund|NO||45377
Århus|DK||232326
Örebro|SE||95932
Örnsköldsvik|SE||26406
Östersund|SE||44559
`;

/** Every city of the gazetteer, parsed once. */
export const WORLD_CITIES: readonly WorldCity[] = ROWS.split('\n')
  .filter((line) => line !== '')
  .map((line) => {
    const [name = '', country = '', state = '', population = '0'] = line.split('|');
    return { name, country, state, population: Number(population) };
  });
