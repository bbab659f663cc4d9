import { readFileSync } from 'node:fs';
import path from 'node:path';
import { splitIntoShots } from '@kol/shared-sdk/text';
import { findRepoRoot } from '../../../src/paths';
import type { ChatModel } from '../../../src/providers/chat';
import { readCast } from '../../../src/text/cast';

/**
 * The figures of the text understanding on the labelled corpus (passages.json, see README.md):
 * shots split inside quotations, role precision and recall, non-roles leaked, speaker and
 * gender accuracy, and how much of each labelled look the role's description holds. Used by the
 * corpus test (which fails below the goals) and by bench/text-understanding.mjs (which prints).
 */

export interface LabelledRole {
  name: string;
  gender: 'female' | 'male';
  aliases: string[];
  look: string[];
}
export interface Passage {
  id: string;
  genre: string;
  text: string;
  roles: LabelledRole[];
  nonRoles: string[];
  quotes: Array<{ text: string; speaker: string | null }>;
}

export function loadCorpus(): Passage[] {
  const file = path.join(findRepoRoot(), 'server', 'test', 'text', 'corpus', 'passages.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Passage[];
}

/** What an engine says of a passage: roles with gender and look, each quotation's speaker. */
export interface Reading {
  roles: Array<{ name: string; gender: 'female' | 'male' | null; description: string }>;
  quotes: Array<{ text: string; speaker: string | null }>;
  shots: string[];
}

export function localReading(text: string): Reading {
  const cast = readCast(text);
  return {
    roles: cast.people.map((p) => ({ name: p.name, gender: p.gender, description: p.description })),
    quotes: cast.quotations.map((q) => ({ text: q.text, speaker: q.speaker })),
    shots: splitIntoShots(text),
  };
}

export interface Figures {
  passages: number;
  quotes: number;
  splitsInsideQuotes: number;
  badShotEdges: number;
  rolePrecision: number;
  roleRecall: number;
  nonRolesLeaked: number;
  speakerAccuracy: number;
  genderAccuracy: number;
  lookCoverage: number;
  /** Per passage, what went wrong (for reading, not for the goals). */
  misses: string[];
}

/** Boundaries between shots that fall strictly inside a quotation of the text. */
function splitsInside(text: string, shots: string[]): number {
  const spans = [...text.matchAll(/[“「『][^”」』]*[”」』]/gu)].map((m) => [
    m.index ?? 0,
    (m.index ?? 0) + m[0].length,
  ]);
  let at = 0;
  let splits = 0;
  for (const shot of shots.slice(0, -1)) {
    const found = text.indexOf(shot.slice(-4), at);
    if (found < 0) continue;
    at = found + Math.min(4, shot.length);
    if (spans.some(([s, e]) => at > (s ?? 0) && at < (e ?? 0))) splits += 1;
  }
  return splits;
}

export function score(corpus: Passage[], read: (text: string) => Reading): Figures {
  let quotes = 0;
  let splitsInsideQuotes = 0;
  let badShotEdges = 0;
  let predicted = 0;
  let truePositive = 0;
  let labelled = 0;
  let found = 0;
  let nonRolesLeaked = 0;
  let speakersRight = 0;
  let gendersRight = 0;
  let gendersAsked = 0;
  let lookSum = 0;
  let looksAsked = 0;
  const misses: string[] = [];
  for (const passage of corpus) {
    const reading = read(passage.text);
    splitsInsideQuotes += splitsInside(passage.text, reading.shots);
    badShotEdges += reading.shots.filter(
      (shot) => /^[”」』’）)》，。！？、]/u.test(shot) || /[“「『‘（(《]$/u.test(shot),
    ).length;
    const canonical = (name: string | null): string | null => {
      if (!name) return null;
      const role = passage.roles.find((r) => r.name === name || r.aliases.includes(name));
      return role ? role.name : name;
    };
    const matched = new Set<string>();
    for (const role of reading.roles) {
      predicted += 1;
      const name = canonical(role.name);
      const labelledRole = passage.roles.find((r) => r.name === name);
      if (labelledRole && !matched.has(labelledRole.name)) {
        truePositive += 1;
        matched.add(labelledRole.name);
        gendersAsked += 1;
        if (role.gender === labelledRole.gender) gendersRight += 1;
        else misses.push(`${passage.id}: gender of ${labelledRole.name} ${String(role.gender)}`);
        if (labelledRole.look.length > 0) {
          looksAsked += 1;
          const held = labelledRole.look.filter((phrase) => role.description.includes(phrase));
          lookSum += held.length / labelledRole.look.length;
          if (held.length < labelledRole.look.length)
            misses.push(`${passage.id}: look of ${labelledRole.name} 「${role.description}」`);
        }
      } else {
        misses.push(`${passage.id}: not a role 「${role.name}」`);
        if (
          passage.nonRoles.some(
            (n) => n === role.name || n.includes(role.name) || role.name.includes(n),
          )
        )
          nonRolesLeaked += 1;
      }
    }
    labelled += passage.roles.length;
    found += matched.size;
    for (const role of passage.roles)
      if (!matched.has(role.name)) misses.push(`${passage.id}: missed ${role.name}`);
    // Quotations are matched in order by their words.
    let from = 0;
    for (const quote of passage.quotes) {
      quotes += 1;
      const index = reading.quotes.findIndex(
        (q, i) => i >= from && q.text.trim() === quote.text.trim(),
      );
      const said = index >= 0 ? canonical(reading.quotes[index]?.speaker ?? null) : undefined;
      if (index >= 0) from = index + 1;
      if (said === quote.speaker) speakersRight += 1;
      else
        misses.push(
          `${passage.id}: 「${quote.text.slice(0, 12)}」 said by ${String(quote.speaker)}, read ${String(said)}`,
        );
    }
  }
  return {
    passages: corpus.length,
    quotes,
    splitsInsideQuotes,
    badShotEdges,
    rolePrecision: predicted ? truePositive / predicted : 1,
    roleRecall: labelled ? found / labelled : 1,
    nonRolesLeaked,
    speakerAccuracy: quotes ? speakersRight / quotes : 1,
    genderAccuracy: gendersAsked ? gendersRight / gendersAsked : 1,
    lookCoverage: looksAsked ? lookSum / looksAsked : 1,
    misses,
  };
}

/**
 * A chat model's reading, where the product uses one: its roles (extract_roles with the model:
 * names, genders, looks). Quotations are the local engine's, since the model's script rewrites
 * the lines rather than attributing the story's own (so speakers are scored locally only).
 */
export async function modelReadings(
  corpus: Passage[],
  model: ChatModel,
): Promise<Map<string, Reading>> {
  const { extractRoles } = await import('../../../src/roles/extract');
  const readings = new Map<string, Reading>();
  for (const passage of corpus) {
    const local = localReading(passage.text);
    const { roles } = await extractRoles(passage.text, model, AbortSignal.timeout(120_000));
    readings.set(passage.text, { ...local, roles });
  }
  return readings;
}
