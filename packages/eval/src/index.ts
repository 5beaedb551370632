export {
  BFCL_DIR_ENV,
  BFCL_LIVE_SETS,
  BFCL_PUBLIC_SETS,
  BFCL_SETS,
  BfclAnswerLine,
  BfclQuestionLine,
  REPO_ROOT,
  availableBfclSets,
  bfclQuestionFile,
  bfclSetExpectation,
  goldPredictions,
  isBfclSet,
  loadBfclSet,
  loadBfclSets,
  resolveBfclDir,
  type BfclExpectation,
  type BfclSet,
  type LoadBfclOptions,
} from './bfcl-dataset.js';
export {
  CheckErrorType,
  checkCall,
  checkCase,
  type CheckFailure,
  type CheckOptions,
  type CheckResult,
} from './checker.js';
export { DatasetFormatError, DatasetNotFoundError, EvalError } from './errors.js';
export {
  CaseExpectation,
  CaseMessage,
  EvalCase,
  ExpectedCall,
  FunctionDoc,
  ParameterDoc,
  type PredictedCall,
} from './eval-case.js';
export {
  isPlainObject,
  matchesAcceptable,
  matchesPattern,
  matchesValue,
  normalizeString,
} from './normalize.js';
export {
  formatReportTable,
  formatTable,
  scoreRun,
  type CaseResult,
  type CategoryScore,
  type ErrorCounts,
  type Predictions,
  type RunReport,
} from './report.js';
