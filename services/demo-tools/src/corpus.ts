// Read-only reference data of the research and reach backends. It never changes at run time, so it lives in code
// rather than in PostgreSQL (only state and side effects go there).

/** A page of the demo web. */
export interface CorpusPage {
  url: string;
  title: string;
  published_at: string;
  /** Words a query can match besides the title and text — in English and in Chinese, as a bilingual index has them. */
  keywords: string[];
  /** Paragraphs; page_visit quotes the ones that match the goal, with their position. */
  paragraphs: string[];
  /** The site refuses access: page_visit answers 403 `forbidden`. Still found by web_search, as on the real web. */
  forbidden?: boolean;
}

export const CORPUS_PAGES: readonly CorpusPage[] = [
  {
    url: 'https://docs.example.org/postgresql/17/release-notes',
    title: 'PostgreSQL 17 release notes',
    published_at: '2024-09-26',
    keywords: [
      'postgresql',
      'postgres',
      '17',
      'release',
      'vacuum',
      'performance',
      '发布',
      '发布说明',
      '版本',
      '性能',
      '逻辑复制',
    ],
    paragraphs: [
      'PostgreSQL 17 was released on 2024-09-26.',
      'Performance: a new memory structure for vacuum consumes up to 20x less memory than before.',
      'Performance: high-concurrency write workloads see up to 2x better throughput thanks to WAL processing improvements.',
      'Logical replication slots now survive a major-version upgrade.',
    ],
  },
  {
    url: 'https://docs.example.org/benchmarks/postgresql-17-vs-16',
    title: 'Benchmark: PostgreSQL 17 vs 16 on pgbench',
    published_at: '2026-11-20',
    keywords: [
      'postgresql',
      'postgres',
      'benchmark',
      'pgbench',
      'tps',
      'latency',
      '16',
      '17',
      'performance',
      '基准测试',
      '性能',
      '对比',
      '延迟',
      '吞吐',
    ],
    paragraphs: [
      'Setup: 16 vCPU, 64 GB RAM, NVMe storage, pgbench scale 1000, 64 clients, 10 minutes per run.',
      'PostgreSQL 16 averaged 44,100 transactions per second with a mean latency of 1.45 ms.',
      'PostgreSQL 17 averaged 52,300 transactions per second with a mean latency of 1.22 ms.',
      'Read-only runs differed by less than 3% between the two versions.',
    ],
  },
  {
    url: 'https://docs.example.org/hardware/nvme-x9-datasheet',
    title: 'NVMe X9 SSD datasheet',
    published_at: '2026-06-02',
    keywords: [
      'ssd',
      'nvme',
      'x9',
      'storage',
      'throughput',
      'datasheet',
      'read',
      'speed',
      '固态硬盘',
      '固态',
      '硬盘',
      '数据手册',
      '读取',
      '速度',
      '寿命',
    ],
    paragraphs: [
      'Sequential read: 3.2 GB/s. Sequential write: 2.9 GB/s.',
      'Random read: 650,000 IOPS at queue depth 32.',
      'Endurance: 1,200 TBW over a 5-year warranty.',
    ],
  },
  {
    url: 'https://docs.example.org/hardware/nvme-z7-review',
    title: 'Review: NVMe Z7 SSD',
    published_at: '2026-10-14',
    keywords: [
      'ssd',
      'nvme',
      'z7',
      'storage',
      'throughput',
      'review',
      'read',
      'speed',
      '固态硬盘',
      '固态',
      '硬盘',
      '评测',
      '测评',
      '读取',
      '速度',
      '缓存',
    ],
    paragraphs: [
      'The Z7 reached 2800 MB/s sequential read in our tests, slightly under its rated 3000 MB/s.',
      'Sustained writes drop to 900 MB/s once the 200 GB cache is full.',
    ],
  },
  {
    url: 'https://docs.example.org/internal/roadmap-2027',
    title: 'Product roadmap 2027 (internal)',
    published_at: '2026-11-10',
    keywords: ['roadmap', 'postgresql', 'plans', '2027'],
    paragraphs: ['This page is only available to employees.'],
    forbidden: true,
  },
  {
    url: 'https://docs.example.org/papers/retrieval-augmented-generation',
    title: 'Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks (full text)',
    published_at: '2020-05-22',
    keywords: ['rag', 'retrieval', 'augmented', 'generation', 'paper', '检索增强生成', '检索', '论文'],
    paragraphs: [
      'We combine a pre-trained seq2seq model with a dense vector index of Wikipedia accessed by a neural retriever.',
      'RAG sets the state of the art on three open-domain QA tasks, e.g. 44.5 exact match on Natural Questions.',
    ],
  },
];

/** A paper's metadata (no full text: scholar_search returns leads only). */
export interface CorpusPaper {
  title: string;
  authors: string[];
  year: number;
  venue: string;
  url: string;
  citations: number;
  keywords: string[];
}

export const CORPUS_PAPERS: readonly CorpusPaper[] = [
  {
    title: 'Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks',
    authors: ['Patrick Lewis', 'Ethan Perez', 'Aleksandra Piktus'],
    year: 2020,
    venue: 'NeurIPS',
    url: 'https://docs.example.org/papers/retrieval-augmented-generation',
    citations: 5400,
    keywords: [
      'rag',
      'retrieval',
      'augmented',
      'generation',
      'knowledge',
      'qa',
      '检索增强生成',
      '检索',
      '问答',
    ],
  },
  {
    title: 'Toolformer: Language Models Can Teach Themselves to Use Tools',
    authors: ['Timo Schick', 'Jane Dwivedi-Yu', 'Roberto Dessì'],
    year: 2023,
    venue: 'NeurIPS',
    url: 'https://docs.example.org/papers/toolformer',
    citations: 1500,
    keywords: [
      'tool',
      'tools',
      'tool use',
      'language models',
      'api',
      'function calling',
      '工具调用',
      '调用工具',
      '大模型',
      '语言模型',
      '自学',
    ],
  },
  {
    title: 'ReAct: Synergizing Reasoning and Acting in Language Models',
    authors: ['Shunyu Yao', 'Jeffrey Zhao', 'Dian Yu'],
    year: 2023,
    venue: 'ICLR',
    url: 'https://docs.example.org/papers/react',
    citations: 2600,
    keywords: [
      'react',
      'reasoning',
      'acting',
      'agents',
      'tools',
      'language models',
      '推理',
      '智能体',
      '大模型',
      '语言模型',
    ],
  },
  {
    title: 'Gorilla: Large Language Model Connected with Massive APIs',
    authors: ['Shishir G. Patil', 'Tianjun Zhang', 'Xin Wang'],
    year: 2023,
    venue: 'arXiv',
    url: 'https://docs.example.org/papers/gorilla',
    citations: 700,
    keywords: [
      'api',
      'apis',
      'function calling',
      'tools',
      'benchmark',
      'language models',
      '调用api',
      '函数调用',
      '工具调用',
      '大模型',
      '语言模型',
    ],
  },
  {
    title: 'Attention Is All You Need',
    authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar'],
    year: 2017,
    venue: 'NeurIPS',
    url: 'https://docs.example.org/papers/attention',
    citations: 120000,
    keywords: ['transformer', 'attention', 'language models', '注意力', '注意力机制', '语言模型'],
  },
];

/** A city the weather backend knows, with its names and a climate baseline for deterministic answers. */
export interface CityClimate {
  name: string;
  aliases: string[];
  /** Mean temperature in °C in late November; answers vary deterministically around it. */
  baseCelsius: number;
  conditions: string[];
}

export const CITIES: readonly CityClimate[] = [
  {
    name: 'Beijing',
    aliases: ['北京', 'peking'],
    baseCelsius: 3,
    conditions: ['sunny', 'clear', 'windy', 'cloudy'],
  },
  {
    name: 'Shanghai',
    aliases: ['上海'],
    baseCelsius: 12,
    conditions: ['cloudy', 'light rain', 'overcast', 'sunny'],
  },
  { name: 'Shenzhen', aliases: ['深圳'], baseCelsius: 21, conditions: ['sunny', 'partly cloudy', 'humid'] },
  {
    name: 'Guangzhou',
    aliases: ['广州', 'canton'],
    baseCelsius: 19,
    conditions: ['partly cloudy', 'sunny', 'light rain'],
  },
  { name: 'Hangzhou', aliases: ['杭州'], baseCelsius: 11, conditions: ['light rain', 'overcast', 'cloudy'] },
  { name: 'London', aliases: ['伦敦'], baseCelsius: 8, conditions: ['overcast', 'drizzle', 'cloudy'] },
  { name: 'New York', aliases: ['纽约', 'nyc'], baseCelsius: 7, conditions: ['clear', 'cloudy', 'rain'] },
  { name: 'Tokyo', aliases: ['东京'], baseCelsius: 12, conditions: ['sunny', 'clear', 'cloudy'] },
  // SP-4's demo request asks about Berlin.
  { name: 'Berlin', aliases: ['柏林'], baseCelsius: 4, conditions: ['overcast', 'cloudy', 'light rain'] },
];
