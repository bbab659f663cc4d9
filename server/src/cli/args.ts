import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './command';

/**
 * Every option of every command, in one list: the command line is parsed before the command is
 * known, so a misspelt option fails the same way whatever the command. A new command's option
 * goes here.
 */
const OPTIONS = {
  server: { type: 'string' },
  actor: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  username: { type: 'string' },
  password: { type: 'string' },
  nickname: { type: 'string' },
  'template-ids': { type: 'string' },
  'functional-level': { type: 'string' },
  status: { type: 'string' },
  'home-page-url': { type: 'string' },
  enable: { type: 'boolean' },
  type: { type: 'string' },
  gen: { type: 'string' },
  reward: { type: 'string' },
  merge: { type: 'string' },
  title: { type: 'string' },
  content: { type: 'string' },
  category: { type: 'string' },
  limit: { type: 'string' },
  dir: { type: 'string' },
  note: { type: 'string' },
  to: { type: 'string' },
  canary: { type: 'string' },
} satisfies ParseArgsConfig['options'];

type Options = typeof OPTIONS;

/** The options as given: strings and booleans, undefined when absent. */
export type Values = ReturnType<
  typeof parseArgs<{ options: Options; allowPositionals: true }>
>['values'];

/** The options that take a value (`--title T`), as opposed to flags (`--json`). */
type StringOption = {
  [K in keyof Options]: Options[K]['type'] extends 'string' ? K : never;
}[keyof Options];

/**
 * Splits the command line into options and words. Throws node's own error for an unknown option
 * or a missing value; the caller prints it above the usage.
 */
export function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/** `--limit 5` → 5; absent → undefined; anything but a whole number is a usage error. */
export function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim()))
    throw new CliError(`--${name} must be an integer, got "${raw}"`, 2);
  return Number(raw);
}

/** An option the command cannot do without; given empty counts as absent. */
export function required(values: Values, name: StringOption): string {
  const value = values[name];
  if (value === undefined || value === '') throw new CliError(`--${name} is required`, 2);
  return value;
}

/** A word the command cannot do without (`user set U`): absent, the usage error `message`. */
export function requiredArg(value: string | undefined, message: string): string {
  if (!value) throw new CliError(message, 2);
  return value;
}

/** Drops undefined fields so the server's optional fields stay absent. */
export function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
