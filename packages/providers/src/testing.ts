// Test-only exports: the strict scripted model (unit tests of stages that ask a model).
export {
  createScriptedProvider,
  type ScriptStep,
  type ScriptedExpectation,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedReply,
  type ScriptedToolCall,
} from './scripted-provider.js';
