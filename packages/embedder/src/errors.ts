/** Base of every error of the embedder package. */
export abstract class EmbedderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The command that fetches the model files into the model folder. */
export const FETCH_MODELS_COMMAND = 'bash scripts/fetch-models.sh';

/** Thrown at start-up when a model file is absent: names the folder, the files and the command that fetches them. */
export class ModelFilesMissingError extends EmbedderError {
  readonly dir: string;
  readonly missing: readonly string[];
  constructor(dir: string, missing: readonly string[]) {
    super(
      `the offline embedding model files are missing from ${dir}: ${missing.join(', ')}. ` +
        `Fetch them with \`${FETCH_MODELS_COMMAND}\` (Maven Central, cached in that folder; SIGNALBOX_MODEL_DIR ` +
        `names another), or run without the semantic model by setting SIGNALBOX_EMBEDDINGS=off explicitly ` +
        `(every decision then records that it was taken without it).`,
    );
    this.dir = dir;
    this.missing = missing;
  }
}

/** Thrown at start-up when a model file's sha256 is not the one the catalog pins (a partial or altered download). */
export class ModelFileMismatchError extends EmbedderError {
  readonly file: string;
  constructor(file: string, expected: string, actual: string) {
    super(
      `model file ${file} has sha256 ${actual}, the catalog pins ${expected}: delete it and fetch it again with ` +
        `\`${FETCH_MODELS_COMMAND}\``,
    );
    this.file = file;
  }
}

/** Thrown when an embedder option or setting is invalid (an unknown model id, a bad SIGNALBOX_EMBEDDINGS value). */
export class EmbedderConfigError extends EmbedderError {}
