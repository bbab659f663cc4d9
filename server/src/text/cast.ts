import { inferGender, type Gender } from './gender';
import { describeLooks } from './looks';
import { findPeople } from './names';
import { attributeSpeakers, type Quotation } from './speakers';

/**
 * What the local engine understands of a story's people, in one reading: who they are (named in
 * full, with the other names the text uses), their gender and look, and who says each
 * quotation. The roles of the comic flow, the speakers of the anime and drama adaptations and
 * the role of each shot all come from here, so they agree.
 */

export interface CastMember {
  name: string;
  aliases: string[];
  gender: Gender | null;
  /** 外貌设定 from the clauses that describe this person; empty when the text gives none. */
  description: string;
  count: number;
}

export interface Cast {
  people: CastMember[];
  quotations: Quotation[];
}

export function readCast(text: string, max = 12): Cast {
  const found = findPeople(text, max);
  const names = found.map((p) => p.name);
  const genders = new Map<string, Gender | null>(
    found.map((p) => [
      p.name,
      inferGender(
        text,
        p.name,
        p.aliases,
        names.filter((n) => n !== p.name),
      ),
    ]),
  );
  const genderOf = (name: string) => genders.get(name) ?? null;
  const looks = describeLooks(text, found, genderOf);
  return {
    people: found.map((p) => ({
      name: p.name,
      aliases: p.aliases,
      gender: genderOf(p.name),
      description: looks.get(p.name) ?? '',
      count: p.count,
    })),
    quotations: attributeSpeakers(text, found, genderOf),
  };
}
