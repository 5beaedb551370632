export {
  clarificationQuestion,
  createParameterInjectorDecide,
  parameterInjectorDefinition,
  type ParameterInjectorDefinitionOptions,
  type ParameterInjectorOptions,
} from './decide.js';
export { buildArguments, dateContextOf, isGrounded, type BuildInput, type BuiltArguments } from './build.js';
export {
  coerceValue,
  parseBooleanWord,
  parseNumeric,
  splitList,
  type CoerceOptions,
  type Coercion,
} from './coerce.js';
export {
  NEXT_WEEKDAY_POLICY,
  dateFormatOf,
  findDates,
  formatDate,
  isInDateFormat,
  parseDateString,
  referenceDay,
  type DateContext,
  type DateFormat,
  type DateMention,
  type DateParts,
} from './dates.js';
export { Env, loadEnv } from './env.js';
export { InjectorConfigError, ModelUnavailableError, ParameterInjectorError } from './errors.js';
export { extractParameter, type Extraction } from './extract-parameter.js';
export {
  enumKey,
  extractEmails,
  extractEnumValues,
  extractIds,
  extractPhones,
  extractQuantities,
  normalizePhone,
  unitOfParameter,
  type Extracted,
  type Quantity,
} from './extractors.js';
export { checkFieldPolicy, deniedFields, type FieldPolicy } from './field-policy.js';
export { parsePath, readPath } from './json-path.js';
export { askToFix, proposeArguments } from './model.js';
export { applyNormalizers } from './normalizers.js';
export { REDACTED, isSensitive, redactArguments, sensitiveFieldsOf, shown } from './redaction.js';
export { repairArguments, type RepairOptions, type RepairResult, type StrippedField } from './repair.js';
export { compileSchema, validateArguments, type FieldError } from './validate.js';
