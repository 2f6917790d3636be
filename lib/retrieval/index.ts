/**
 * The selector's public surface: everything outside lib/retrieval imports from here, nothing
 * from the layers inside (README "How a question becomes a request"; the layer rules are
 * checked in npm test).
 */
export type { ParseReport, WorkerFigures, Section, SectionPart, LoadNotice, SkippedFile, IgnoredFiles, SynonymGroup, KnowledgeBase, UnreadablePath, RepeatedFolder, DeclaredRules, AssistantIdentity, WidgetText, WidgetLook, RulesRefusal, WeightedTerm, TermExplanation, QueryTermSource, QueryTerm, Query, LanguageSource, QueryLanguage, OfflineText, IdentityTexts, SemanticStage, FusionRanks, Reason, SectionVerdict, TokenSplit, Explanation } from './types';
export { retrievalConfigSchema, retrievalConfig } from './config';
export type { RetrievalConfig, RetrievalConfigInput } from './config';
export { KnowledgeBaseError, RetrievalConfigError } from './errors';
export { countTokens, TokenCounter } from './tokens';
export type { CountTokens } from './tokens';
export { partLabel, headingPath, titlePath, renderSectionBlock } from './context-text';
export type { RenderableSection } from './context-text';
export { CHAT_FILLER_WORDS, KEPT_STOP_WORDS, normalizeWord, analyzeInBulk, analyze, contentWords, createAnalyzer, englishAnalyzer, foldWord } from './query/analyzer';
export type { Analyzer } from './query/analyzer';
export { ANALYZED_LANGUAGES, ENGLISH, hasAnalyzer } from './query/languages';
export { acceptedLanguages, languageOf, languageName, textDirection } from './query/language-tags';
export { customerLanguage, detectLanguage } from './query/detect-language';
export type { LanguageHints, CustomerLanguage } from './query/detect-language';
export { parseSynonyms, expandTerms } from './query/synonyms';
export type { Expansion } from './query/synonyms';
export { MIN_TYPO_LENGTH, TYPO_INDEX_MAX_SECTIONS, MAX_CORRECTIONS, buildTypoIndex, withinOneEdit, typoCorrections } from './query/typos';
export type { TypoIndex } from './query/typos';
export { wordVariants } from './query/variants';
export { buildQuery, embeddingQueryText, queryMessages } from './query/build-query';
export type { QueryWeights, TypoLookup } from './query/build-query';
export { SYNONYMS_FILE, TESTS_FOLDER, listKnowledgeFiles } from './kb/list-files';
export type { KnowledgeFiles } from './kb/list-files';
export { DOCUMENT_EXTENSIONS, documentFormat, parseDocumentTree } from './kb/formats';
export type { DocumentFormat, DocumentTree } from './kb/formats';
export { parseDocument, looksPinned } from './kb/parse-document';
export type { ParsedSection, ParsedDocument } from './kb/parse-document';
export { assignSectionIds } from './kb/section-ids';
export { IDENTITY_FILE, identitySchema, defaultIdentity, parseIdentity, identityTexts, identityLanguages, widgetLanguage, WIDGET_LABELS, OFFLINE_PHRASES } from './kb/identity';
export { isPageUrl, pageUrl, kbPages } from './kb/pages';
export type { KbPage } from './kb/pages';
export { missingRules, rulesRefusal } from './kb/declared-rules';
export { POOL_MIN_BYTES, sectionsFromSources, loadKnowledgeBase, loadKnowledgeBaseAsync } from './kb/load';
export type { LoadOptions, LoadProgress, BuiltDocument } from './kb/load';
export { defaultWorkerCount } from './kb/parse-pool';
export { bm25Idf, bm25FieldNorm, bm25Saturation, bm25TermScore, buildBm25Index, scoreInto, rankMatches, explainTermIds } from './rank/bm25';
export type { Bm25Params, FieldSpec, Bm25Index, WeightedFields } from './rank/bm25';
export { RRF_K, reciprocalRankFusion } from './rank/fusion';
export { SEMANTIC_DEFAULTS, fusesAt, embeddingText, sectionVectors, setSectionVector, unembeddedCount, semanticRanking } from './rank/semantic';
export type { SectionVectors, SemanticSettings, SemanticQuery, SemanticRanking } from './rank/semantic';
export { ranksAbove, heapify, popTop } from './rank/rank-heap';
export { splitSection, splitLongSections } from './select/split';
export { MIN_PART_TOKENS, createRetrievalIndex, createRetrievalIndexAsync } from './select/build-index';
export type { RetrievalIndex, LanguageIndex, IndexOptions } from './select/build-index';
export type { SectionTerms } from './kb/section-terms';
export { confidenceOf, lexicalConfidence, scoreQuery } from './select/score';
export type { ScoredQuery } from './select/score';
export { select, selectScored } from './select/select';
export type { Sent, Selection, SemanticSelection } from './select/select';
export { explain, selectContext } from './explain/explain';
export { PINNED_SHARE_WARNING, PINNED_SHARE_ERROR, budgetHealth } from './explain/budget-health';
export type { BudgetHealth } from './explain/budget-health';
export { formatExplanation, formatHealth, formatSection, languageLine } from './explain/format';
