// Vocabulary data of the planner's value lists (`listed-values.ts`): the words around a list of values that change
// how the list is read. The words that join a list's items are the recipient lists' (recipient-lists.ts). Not taken
// from any evaluation case.

/**
 * English prepositions that take two ends of one range or one relation ("between New York and Boston", "from 100 to
 * 1500"): a list after them is what one call compares or spans, not one value per call. Source: the prepositions of
 * space and time with two complements, Quirk et al., A Comprehensive Grammar of the English Language (1985), §9.17.
 */
export const EN_RANGE_PREPOSITIONS: readonly string[] = ['between', 'among', 'amongst'];

/**
 * Chinese words that put two ends of one range or relation before them (北京和上海之间, 北京与上海的距离 is read as one
 * relation only when 之间, 相比 or 结合 follows). Source: the locative 之间 and the comparative and joining verbs of
 * 现代汉语八百词.
 */
export const ZH_RANGE_AFTER: readonly string[] = ['之间', '之差', '相比', '比较', '对比', '结合'];

/**
 * Words that pair the items of two lists one by one ("Taylor Swift and Maroon 5, for 20 and 15 minutes
 * respectively", 分别). Source: the respective adverbs of Quirk et al. (1985) §8.136 and 现代汉语八百词 (分别).
 */
export const RESPECTIVE_WORDS: readonly string[] = ['respectively', '分别'];
