import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

// The labelled corpus (corpus/README.md) is read as plain JSON, with no server code: these checks
// keep its labels consistent with its own texts, so a wrong score of a text algorithm against it
// can only come from the algorithm, not from a typo in a label.

type Gender = 'female' | 'male';
interface Role {
  name: string;
  gender: Gender;
  aliases: string[];
  look: string[];
}
interface Quote {
  text: string;
  speaker: string | null;
}
interface Passage {
  id: string;
  genre: string;
  text: string;
  roles: Role[];
  nonRoles: string[];
  quotes: Quote[];
}

const passages = JSON.parse(
  readFileSync(path.join(__dirname, 'corpus', 'passages.json'), 'utf8'),
) as Passage[];

const HAN = /\p{Script=Han}/gu;
const QUOTATION = /“([^“”]*)”|「([^「」]*)」/g;

/** Every quotation of a text, in order, as it stands between its marks. */
function quotationsOf(text: string): { text: string; corner: boolean }[] {
  return [...text.matchAll(QUOTATION)].map((m) => ({
    text: m[1] ?? m[2] ?? '',
    corner: m[2] !== undefined,
  }));
}

describe('text corpus', () => {
  it('is large and varied enough', () => {
    expect(passages.length).toBeGreaterThanOrEqual(40);
    expect(new Set(passages.map((p) => p.genre)).size).toBeGreaterThanOrEqual(12);
    const ids = passages.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Corner brackets in a few passages only, curly quotes in the rest.
    const corner = passages.filter((p) => quotationsOf(p.text).some((q) => q.corner));
    expect(corner.length).toBeGreaterThanOrEqual(4);
    expect(corner.length).toBeLessThanOrEqual(6);
    // About two thirds describe at least one role's looks; the rest describe none, so a finder
    // that invents looks is caught too.
    const described = passages.filter((p) => p.roles.some((r) => r.look.length > 0));
    expect(described.length / passages.length).toBeGreaterThanOrEqual(0.55);
    expect(described.length / passages.length).toBeLessThanOrEqual(0.8);
  });

  it.each(passages.map((p) => [p.id, p] as const))('%s is self-consistent', (_id, p) => {
    expect(p.id).toMatch(/^[a-z]+-\d{2}$/);
    const han = p.text.match(HAN)?.length ?? 0;
    expect(han).toBeGreaterThanOrEqual(150);
    expect(han).toBeLessThanOrEqual(600);
    // One kind of quotation mark per passage, none left open.
    const found = quotationsOf(p.text);
    expect(new Set(found.map((q) => q.corner)).size).toBeLessThanOrEqual(1);
    const stripped = p.text.replace(QUOTATION, '');
    expect(stripped).not.toMatch(/[“”「」]/);

    const names = p.roles.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const aliases = p.roles.flatMap((r) => r.aliases);
    for (const role of p.roles) {
      expect(['female', 'male']).toContain(role.gender);
      expect(p.text).toContain(role.name);
      for (const alias of role.aliases) {
        expect(p.text).toContain(alias);
        expect(alias).not.toBe(role.name);
        expect(names).not.toContain(alias);
      }
      for (const phrase of role.look) expect(p.text).toContain(phrase);
    }
    // An alias names one person only.
    expect(new Set(aliases).size).toBe(aliases.length);

    expect(p.nonRoles.length).toBeGreaterThanOrEqual(2);
    for (const word of p.nonRoles) {
      expect(p.text).toContain(word);
      expect(names).not.toContain(word);
      expect(aliases).not.toContain(word);
    }

    // Every quotation is labelled, in the order of the text, and a speaker is a role's
    // canonical name (never an alias) or null.
    expect(p.quotes.map((q) => q.text)).toEqual(found.map((q) => q.text));
    for (const quote of p.quotes) {
      expect(quote.text.length).toBeGreaterThan(0);
      if (quote.speaker !== null) expect(names).toContain(quote.speaker);
    }
  });
});
