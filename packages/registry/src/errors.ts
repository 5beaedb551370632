// Errors of the registry package. Loading and importing collect every problem before throwing, so that one run
// shows an author all of them (RG-2); the thrown error carries the list as data.

import type { Problem } from './problem.js';

/** Base of every error the registry throws. */
export abstract class RegistryError extends Error {
  /** True when the same call may succeed if tried again later (the database was unreachable). */
  abstract readonly retriable: boolean;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
  }
}

/** Thrown when a registry directory (or a stored registry) is invalid; nothing of it was loaded. */
export class RegistryLoadError extends RegistryError {
  readonly retriable = false;
  /** Every problem found, one per broken field, relation or YAML syntax error. */
  readonly problems: readonly Problem[];

  constructor(message: string, problems: readonly Problem[]) {
    super(message);
    this.problems = problems;
  }
}

/** Thrown when a file handed to an importer cannot be turned into tool definitions; nothing was imported. */
export class RegistryImportError extends RegistryError {
  readonly retriable = false;
  /** Every problem found. */
  readonly problems: readonly Problem[];

  constructor(message: string, problems: readonly Problem[]) {
    super(message);
    this.problems = problems;
  }
}

/** Thrown when `toolsFor` is asked about an agent, scenario or tenant the registry does not declare. */
export class UnknownVisibilitySubjectError extends RegistryError {
  readonly retriable = false;
  /** Which kind of subject was unknown. */
  readonly subject: 'agent' | 'scenario' | 'tenant' | 'scene';
  /** The unknown id. */
  readonly id: string;

  constructor(subject: 'agent' | 'scenario' | 'tenant' | 'scene', id: string, known: readonly string[]) {
    super(`unknown ${subject} "${id}"; the registry declares: ${known.join(', ') || '(none)'}`);
    this.subject = subject;
    this.id = id;
  }
}

/** Thrown when a stored registry version (or label) does not exist. */
export class RegistryVersionNotFoundError extends RegistryError {
  readonly retriable = false;
  /** The registry name asked for. */
  readonly registry: string;
  /** The version, prefix or label asked for. */
  readonly ref: string;

  constructor(registry: string, ref: string) {
    super(`registry "${registry}" has no published version matching "${ref}"`);
    this.registry = registry;
    this.ref = ref;
  }
}

/** Thrown when PostgreSQL cannot be reached, or refused a statement, while publishing or loading a registry. */
export class RegistryStoreError extends RegistryError {
  readonly retriable: boolean;
  /** The PostgreSQL SQLSTATE, when the database reported one. */
  readonly sqlState: string | undefined;

  constructor(
    message: string,
    options: { cause?: unknown; retriable: boolean; sqlState?: string | undefined },
  ) {
    super(message, { cause: options.cause });
    this.retriable = options.retriable;
    this.sqlState = options.sqlState;
  }
}
