import type { Command } from 'commander';

/** Where the requirement ids the help cites are explained, relative to the repository root. */
export const REQUIREMENTS_PAGE = 'docs/requirements.md';

// The id families of docs/requirements.md; `EVAL-1` is not read as `EV` because `EV` must be followed by the dash.
const REQUIREMENT_ID =
  /(?<![A-Za-z0-9_-])(?:FL|MS|RG|TD|PI|EX|EV|EL|OB|IF|OP|RS|SP|EVAL)-[0-9]+(?![A-Za-z0-9_])/g;

/** The requirement ids a help text cites, each once, in order of appearance. */
export function requirementIdsIn(text: string): string[] {
  return [...new Set(text.match(REQUIREMENT_ID))];
}

/** The paragraph that explains the ids a help text cites, wrapped to `width` columns; empty when it cites none. */
export function requirementIdsNote(helpText: string, width = 80): string {
  const ids = requirementIdsIn(helpText);
  const [first] = ids;
  if (first === undefined) return '';
  const text =
    `Requirement ids above (${ids.join(', ')}) name what a command or option implements; each is explained in ` +
    `${REQUIREMENTS_PAGE} (e.g. ${REQUIREMENTS_PAGE}#${first.toLowerCase()}).`;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  // commander ends the help text with a newline of its own.
  return `\n${lines.join('\n')}`;
}

/**
 * Makes the help of `program` and of every command below it, present or added later, end with
 * {@link requirementIdsNote} whenever it shows an id: commander prints `afterAll` text after the help of the command
 * it is added to and of all its subcommands, so no command has to remember it.
 */
export function explainRequirementIds(program: Command): void {
  program.addHelpText('afterAll', ({ command }) => requirementIdsNote(command.helpInformation()));
}
