import { ANIME_NARRATOR } from './anime';

/**
 * A role's gender from the story's own words, so that its default voice is of that gender (a
 * scholar read in a woman's voice is the first thing a listener notices). Pure, synchronous and
 * offline: the local engine and a chat model's roles alike are checked with it.
 *
 * The cues, strongest first:
 * - what the text says the person is: a gendered noun next to the name (书生沈言, 少女阿瑶,
 *   名叫阿瑶的姑娘, 沈言是个落第书生, 阿瑶，一个十六岁的少女), gendered acts (娶, 嫁);
 * - how others address them: 阿瑶姑娘, 沈公子, 沈言兄, 阿瑶姐姐;
 * - the pronoun (她, 他) that follows when the name is the subject and nobody else is named
 *   in between: 阿瑶低下头，她的手在抖;
 * - last, only when nothing else decides, a given-name character (婉, 雪, 瑶…; 刚, 龙, 峰…).
 * Null when unsure: the page shows 未知 and the voice alternates, rather than guessing wrong.
 */

export type Gender = 'female' | 'male';

/** Nouns that say what a person is (in apposition or after 是). */
const FEMALE_NOUNS = [
  '少女',
  '女子',
  '姑娘',
  '小姐',
  '夫人',
  '公主',
  '郡主',
  '娘娘',
  '皇后',
  '王妃',
  '贵妃',
  '师姐',
  '师妹',
  '母亲',
  '妻子',
  '女儿',
  '女孩',
  '女人',
  '妇人',
  '少妇',
  '老妇',
  '丫鬟',
  '丫头',
  '侍女',
  '婢女',
  '宫女',
  '姐姐',
  '妹妹',
  '表妹',
  '表姐',
  '圣女',
  '女帝',
  '女王',
  '女侠',
  '仙子',
  '千金',
  '娘子',
  '新娘',
  '媳妇',
  '老板娘',
  '奶奶',
  '祖母',
  '婆婆',
  '尼姑',
  '寡妇',
  '女弟子',
  '女学生',
  '女医',
];
const MALE_NOUNS = [
  '少年',
  '男子',
  '男人',
  '男孩',
  '公子',
  '少爷',
  '师兄',
  '师弟',
  '父亲',
  '丈夫',
  '儿子',
  '王爷',
  '书生',
  '秀才',
  '举人',
  '状元',
  '小伙子',
  '小伙',
  '汉子',
  '大汉',
  '老汉',
  '老头',
  '老者',
  '和尚',
  '道士',
  '皇帝',
  '太子',
  '皇子',
  '王子',
  '世子',
  '哥哥',
  '弟弟',
  '兄长',
  '表哥',
  '表弟',
  '爷爷',
  '祖父',
  '叔叔',
  '伯父',
  '舅舅',
  '侄子',
  '新郎',
  '相公',
  '夫君',
  '郎君',
  '老爷',
  '书童',
  '小厮',
  '家丁',
  '太监',
  '男弟子',
  '男学生',
];

/** Address terms right after a name: 阿瑶姑娘, 沈言兄, 沈公子 (with the surname alone too). */
const FEMALE_ADDRESS = [
  '姑娘',
  '小姐',
  '夫人',
  '姐姐',
  '妹妹',
  '师姐',
  '师妹',
  '公主',
  '娘娘',
  '仙子',
  '丫头',
  '大娘',
  '婶',
  '姐',
  '妹',
];
const MALE_ADDRESS = [
  '公子',
  '少爷',
  '师兄',
  '师弟',
  '大哥',
  '哥哥',
  '王爷',
  '先生',
  '老爷',
  '贤弟',
  '老弟',
  '兄弟',
  '兄',
  '哥',
  '叔',
  '伯',
];

/** Given-name characters: a weak prior, used only when the text says nothing. */
const FEMALE_GIVEN = new Set([
  ...'婉雪晴瑶柔儿婷娜妍媛娟莲蓉薇琳芸燕凤霜嫣姝娇姗妮琪萱璇倩怡黛蝶梅兰菲',
]);
const MALE_GIVEN = new Set([...'刚龙虎峰强勇军伟豪杰雄彪武斌鹏霸坤']);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = (words: string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');

const FEMALE_NOUN = alternatives(FEMALE_NOUNS);
const MALE_NOUN = alternatives(MALE_NOUNS);
/** Characters inside one clause (no clause or sentence punctuation, no quotation mark). */
const IN_CLAUSE = '[^，,。！？!?；;：:…\\n“”「」『』]';
/** Where a description noun ends: with its clause (沈言是被少女救的 says nothing of 沈言). */
const CLAUSE_END = '(?=[，,。！？!?；;…\\n、”」』]|$)';

/** Quoted speech: pronouns in it are the speaker's words about someone else. */
const QUOTE = /“[^”]*”|「[^」]*」|『[^』]*』|"[^"]*"/g;
/** Clause and sentence punctuation. */
const CLAUSE_BREAK = /[，,；;：:、]/;
const SENTENCE_BREAK = /[。！？!?…\n]/;
/** Words that may stand before the subject of a clause: 这时阿瑶…, 只见沈言…. */
const LEAD_IN =
  /^(?:这时|此时|那时|忽然|突然|于是|随后|然后|当下|只见|却见|原来|可是|但是|不过|而|但|可|便|又|也|才|就|再)?$/u;

interface Scores {
  female: number;
  male: number;
}

/** The singular 他/她 (not 他们, 其他, 他人, 吉他…), with its position. */
function pronouns(clause: string): Array<{ at: number; gender: Gender }> {
  const found: Array<{ at: number; gender: Gender }> = [];
  for (let i = 0; i < clause.length; i++) {
    const c = clause[i];
    if (c !== '他' && c !== '她') continue;
    const next = clause[i + 1] ?? '';
    const prev = clause[i - 1] ?? '';
    if (next === '们' || next === '人' || next === '乡' || next === '日' || next === '物') continue;
    if (prev === '其' || prev === '吉' || prev === '无') continue;
    found.push({ at: i, gender: c === '她' ? 'female' : 'male' });
  }
  return found;
}

/**
 * The cues that say what the person is (apposition, 是…, address terms, gendered acts), counted
 * at every mention.
 */
function describedAs(text: string, names: string[], scores: Scores): void {
  for (const raw of names) {
    const name = escape(raw);
    const rules: Array<[RegExp, Gender, number]> = [
      // 书生沈言, 少女阿瑶: the noun right before the name is what the name is.
      [new RegExp(`(?:${FEMALE_NOUN})${name}`, 'gu'), 'female', 3],
      [new RegExp(`(?:${MALE_NOUN})${name}`, 'gu'), 'male', 3],
      // 有个少女名叫阿瑶.
      [
        new RegExp(`(?:${FEMALE_NOUN})(?:[，,])?(?:名叫|叫做|名唤|名为|唤作)${name}`, 'gu'),
        'female',
        3,
      ],
      [
        new RegExp(`(?:${MALE_NOUN})(?:[，,])?(?:名叫|叫做|名唤|名为|唤作)${name}`, 'gu'),
        'male',
        3,
      ],
      // 一个名叫阿瑶的（十六岁的）姑娘.
      [
        new RegExp(
          `(?:名叫|叫做|名唤|名为|唤作|叫)${name}的${IN_CLAUSE}{0,10}?(?:${FEMALE_NOUN})`,
          'gu',
        ),
        'female',
        3,
      ],
      [
        new RegExp(
          `(?:名叫|叫做|名唤|名为|唤作|叫)${name}的${IN_CLAUSE}{0,10}?(?:${MALE_NOUN})`,
          'gu',
        ),
        'male',
        3,
      ],
      // 沈言是个落第书生。阿瑶是沈言的表妹。 (the noun ends the clause: 沈言是被少女救的 is not)
      [
        new RegExp(
          `${name}(?:本是|原是|原本是|便是|就是|正是|乃是|是|乃)${IN_CLAUSE}{0,12}?(?:${FEMALE_NOUN})${CLAUSE_END}`,
          'gu',
        ),
        'female',
        3,
      ],
      [
        new RegExp(
          `${name}(?:本是|原是|原本是|便是|就是|正是|乃是|是|乃)${IN_CLAUSE}{0,12}?(?:${MALE_NOUN})${CLAUSE_END}`,
          'gu',
        ),
        'male',
        3,
      ],
      // 阿瑶，一个十六岁的少女，…
      [
        new RegExp(
          `${name}[，,](?:一个|一位|一名|这个|那个|这位|那位|个)${IN_CLAUSE}{0,10}?(?:${FEMALE_NOUN})${CLAUSE_END}`,
          'gu',
        ),
        'female',
        3,
      ],
      [
        new RegExp(
          `${name}[，,](?:一个|一位|一名|这个|那个|这位|那位|个)${IN_CLAUSE}{0,10}?(?:${MALE_NOUN})${CLAUSE_END}`,
          'gu',
        ),
        'male',
        3,
      ],
      // How others address them: 阿瑶姑娘, 沈言兄 (not 沈言兄妹, 阿瑶姐弟: two people).
      [new RegExp(`${name}(?:${alternatives(FEMALE_ADDRESS)})(?![弟妹们])`, 'gu'), 'female', 2],
      [new RegExp(`${name}(?:${alternatives(MALE_ADDRESS)})(?![弟妹们长])`, 'gu'), 'male', 2],
      // Gendered acts: 沈言娶了…, 娶阿瑶, 阿瑶嫁给…, 嫁给沈言.
      [new RegExp(`${name}${IN_CLAUSE}{0,3}?娶`, 'gu'), 'male', 2],
      [new RegExp(`娶${IN_CLAUSE}{0,2}?${name}`, 'gu'), 'female', 2],
      [new RegExp(`${name}${IN_CLAUSE}{0,3}?(?:嫁给|嫁入|出嫁|怀孕|怀了)`, 'gu'), 'female', 2],
      [new RegExp(`嫁给${IN_CLAUSE}{0,2}?${name}`, 'gu'), 'male', 2],
      // What they wear or grow: 阿瑶穿着一袭白裙, 沈言摸了摸胡须.
      [new RegExp(`${name}${IN_CLAUSE}{0,8}?(?:裙|旗袍|发簪|珠钗|胭脂)`, 'gu'), 'female', 1],
      [new RegExp(`${name}${IN_CLAUSE}{0,8}?(?:胡须|胡子|络腮胡)`, 'gu'), 'male', 1],
    ];
    for (const [rule, gender, weight] of rules) {
      scores[gender] += weight * [...text.matchAll(rule)].length;
    }
  }
}

/** The surname of a name (沈 of 沈言), or null for 阿瑶, 小七, 老周 and one-character names. */
function surnameOf(name: string): string | null {
  const chars = [...name];
  if (chars.length < 2 || chars.length > 3 || /^[阿小老]/u.test(name)) return null;
  return chars[0] ?? null;
}

/** 沈公子, 苏姑娘: the surname alone with a gendered address, when no other role shares it. */
const SURNAME_FEMALE = ['姑娘', '小姐', '夫人', '师姐', '师妹', '娘子', '仙子'];
const SURNAME_MALE = ['公子', '少爷', '师兄', '师弟', '先生', '老爷', '大哥', '兄'];

function addressedBySurname(text: string, name: string, others: string[], scores: Scores): void {
  const surname = surnameOf(name);
  if (!surname || others.some((other) => surnameOf(other) === surname)) return;
  const s = escape(surname);
  const female = new RegExp(`${s}(?:${alternatives(SURNAME_FEMALE)})`, 'gu');
  const male = new RegExp(`${s}(?:${alternatives(SURNAME_MALE)})(?![弟妹们长])`, 'gu');
  scores.female += 2 * [...text.matchAll(female)].length;
  scores.male += 2 * [...text.matchAll(male)].length;
}

/**
 * Pronoun votes: a mention that is the subject of its clause, followed by 她 or 他 before
 * anyone else is named (in the same sentence, or at the start of the next), votes for that
 * pronoun's gender. Quoted speech is left out: its pronouns are about someone else.
 */
function pronounVotes(text: string, names: string[], others: string[], scores: Scores): void {
  // A quotation ends a clause: 沈言笑道：“……”他转身.
  const plain = text.replace(QUOTE, '，');
  const sentences: string[] = [];
  let current = '';
  for (const c of plain) {
    current += c;
    if (SENTENCE_BREAK.test(c)) {
      sentences.push(current);
      current = '';
    }
  }
  if (current) sentences.push(current);
  const people = [...new Set([...names, ...others])].sort((a, b) => b.length - a.length);
  /** Where the people are named in a piece of text, longest names first, no overlaps. */
  const mentions = (piece: string) => {
    const found: Array<{ at: number; end: number; name: string }> = [];
    for (const person of people) {
      let from = 0;
      for (;;) {
        const at = piece.indexOf(person, from);
        if (at < 0) break;
        const end = at + person.length;
        if (!found.some((m) => at < m.end && end > m.at)) found.push({ at, end, name: person });
        from = end;
      }
    }
    return found.sort((a, b) => a.at - b.at);
  };
  for (let s = 0; s < sentences.length; s++) {
    const sentence = sentences[s] ?? '';
    const named = mentions(sentence);
    for (let m = 0; m < named.length; m++) {
      const mention = named[m];
      if (!mention || !names.includes(mention.name)) continue;
      // The subject: the name opens its clause (after at most a lead-in word).
      let clauseStart = mention.at;
      while (clauseStart > 0 && !CLAUSE_BREAK.test(sentence[clauseStart - 1] ?? '')) clauseStart--;
      if (!LEAD_IN.test(sentence.slice(clauseStart, mention.at).trim())) continue;
      const nextPerson = named[m + 1]?.at ?? sentence.length;
      const rest = sentence.slice(mention.end, nextPerson);
      const inSentence = pronouns(rest)[0];
      if (inSentence) {
        scores[inSentence.gender] += 1;
        continue;
      }
      // Nobody else named after it in this sentence: the next may open with the pronoun.
      if (nextPerson < sentence.length) continue;
      const next = (sentences[s + 1] ?? '').trimStart();
      const opening = pronouns(next.slice(0, 1))[0];
      if (opening) scores[opening.gender] += 1;
    }
  }
}

/**
 * A script's lines (「沈言：她今天不会来了。」, the anime and drama scripts) in quotation
 * marks, as a story writes speech: the pronouns in them are about someone else. The
 * narrator's (旁白) are narration.
 */
function asSpeech(text: string): string {
  return text.replace(
    /^([^\s：:“”「」，。！？]{1,12})[：:][ \t]*(?![“「『"])(.+)$/gmu,
    // The narrator's lines are the story itself, read as written.
    (_, speaker: string, line: string) =>
      speaker === ANIME_NARRATOR ? line : `${speaker}：“${line}”`,
  );
}

/** What puts a name in the object's place: 递给沈言, 看着苏禾. */
const OBJECT_BEFORE = /(?:给|向|对|把|被|朝|跟|和|与|看着|望着|看向|望向|盯着|扶着|拉着)$/u;
/** 苏清雪，一个白衣少女 / 沈言是个落第书生: what the person is, said right after the name. */
const APPOSITION =
  '^(?:，|是|是个|是一个|是一位|，一个|，一位|，一名|，是个|，是一个)[^，。！？]{0,8}?';
const FEMALE_AFTER_NAME = new RegExp(
  `${APPOSITION}(?:少女|女子|姑娘|女孩|女人|妇人|小姐|夫人|女生|老太太|大娘|婶)`,
  'u',
);
const MALE_AFTER_NAME = new RegExp(
  `${APPOSITION}(?:少年|男子|男人|汉子|公子|少爷|小伙|男生|老头|老者|大爷|书生)`,
  'u',
);
const FEMALE_ADDRESS_AFTER = /^(?:姐姐|姐|妹妹|妹|姑娘|小姐|夫人|阿姨|大娘|婶|奶奶|娘娘)/u;
const MALE_ADDRESS_AFTER = /^(?:哥哥|哥|兄|公子|少爷|先生|叔|伯|大爷|爷爷|师兄|师弟)/u;
/** What a person is, just before their name: 丫鬟春桃, 皇后萧明仪, 书生沈言. */
const FEMALE_BEFORE =
  /(?:丫鬟|丫头|侍女|宫女|皇后|贵妃|公主|郡主|夫人|小姐|姑娘|少女|女子|女孩|母亲|妻子|女儿|姐姐|妹妹|师姐|师妹|嬷嬷|老板娘|女人|女生|女医生|女警)$/u;
const MALE_BEFORE =
  /(?:书生|少年|公子|少爷|王爷|太监|将军|男子|男孩|父亲|丈夫|儿子|哥哥|弟弟|师兄|师弟|老头|汉子|男人|男生|小伙子)$/u;
/**
 * Given-name characters web novels give to one sex far more than the other: the last resort
 * when the text says nothing else (a name like 宁远 stays unknown).
 */
const FEMALE_GIVEN_NAMES = new Set(
  Array.from(
    '雪晴瑶柔婉燕娟芳丽娜婷媛妍薇蓉萍霞梅兰莲琴珊玲莉颖怡欣眉烟念栀曦霜沫桃芮雨糖蓁禾娘舒雁月微鸢璃姝嫣妤婕岚莺翠珠钗凤荷菱芷萱夏晚鹿亚娅莎',
  ),
);
const MALE_GIVEN_NAMES = new Set(
  Array.from(
    '刚强龙虎峰山海军国华伟杰浩宇轩辰寒深远言昀川阳福全业德启北烈默铁刀鸣豪彪雄斌武勇毅骁霆野磊栋峻庭恒铭安冬屿明白恩',
  ),
);

/** 他/她 where a clause starts: the subject of that clause (给她 is someone else's act). */
const SUBJECT_PRONOUN = /(?:^|[，。！？；：\s“”」])([他她])(?!们)/gu;

/**
 * Evidence of a person's gender that the pronoun tracker weighs: what the text calls them right
 * before or after their name (丫鬟春桃, 苏清雪，一个白衣少女), how the others address them (青崖哥哥,
 * 南宫姑娘), the 他/她 that next starts a clause before anyone else is named, and last their given
 * name. Null when nothing decides.
 */
function genderByVotes(
  text: string,
  person: { name: string; aliases: string[] },
  others: string[],
): Gender | null {
  if (!person.name.trim() || !text.trim()) return null;
  let female = 0;
  let male = 0;
  const spellings = [person.name, ...person.aliases];
  const outside = text.replace(/[“「『][^”」』]*[”」』]/gu, (q) => '　'.repeat(q.length));
  for (const spelling of spellings) {
    for (let at = text.indexOf(spelling); at >= 0; at = text.indexOf(spelling, at + 1)) {
      const after = text.slice(at + spelling.length, at + spelling.length + 12);
      const before = text.slice(Math.max(0, at - 6), at);
      if (FEMALE_ADDRESS_AFTER.test(after)) female += 2;
      else if (MALE_ADDRESS_AFTER.test(after)) male += 2;
      if (FEMALE_BEFORE.test(before)) female += 3;
      else if (MALE_BEFORE.test(before)) male += 3;
      if (outside[at] !== spelling[0]) continue;
      if (FEMALE_AFTER_NAME.test(after)) female += 2;
      else if (MALE_AFTER_NAME.test(after)) male += 2;
      // 阿瑶把药碗递给沈言，她的手在抖: after an object the pronoun is the subject's.
      if (OBJECT_BEFORE.test(before)) continue;
      // The first clause-starting pronoun within the next two sentences, if nobody else is
      // named before it.
      // A quotation ends the chain: the 她 after “…” is usually whoever said it.
      const window =
        outside.slice(at + spelling.length, at + spelling.length + 80).split('　')[0] ?? '';
      const stops = [...window.matchAll(/[。！？]/gu)];
      const scope = window.slice(0, stops[1]?.index ?? window.length);
      const pronoun = [...scope.matchAll(SUBJECT_PRONOUN)][0];
      if (!pronoun) continue;
      const between = scope.slice(0, pronoun.index);
      if (others.some((other) => between.includes(other))) continue;
      // 林默推开门，只见一个白衣少女……她: the pronoun is the newcomer's.
      if (/少女|女子|姑娘|女孩|女人|少年|男子|男人|汉子|老者|身影|人影/u.test(between)) continue;
      if (pronoun[1] === '她') female += 1;
      else male += 1;
    }
  }
  if (female > male) return 'female';
  if (male > female) return 'male';
  return null;
}

/** The last resort: a title (王婶, 李伯) or a given-name character that leans one way. */
function genderByName(name: string): Gender | null {
  const person = { name };
  // 王婶, 王氏, 沈贵人, 傅老太太; 李伯, 张公公: the title says it.
  if (/(?:婶|氏|娘|贵人|夫人|嬷嬷|太太|小姐|姑娘|妃|姐)$/u.test(person.name)) return 'female';
  if (/(?:叔|伯|爷|公公|先生|少爷|公子|哥)$/u.test(person.name)) return 'male';
  const chars = Array.from(person.name);
  const last = chars[chars.length - 1] ?? '';
  if (FEMALE_GIVEN_NAMES.has(last)) return 'female';
  if (MALE_GIVEN_NAMES.has(last)) return 'male';
  return null;
}

/**
 * The gender the text gives the person `name` (also named `aliases`), or null when unsure:
 * first the votes of the text around their mentions (what they are called, the 他/她 that next
 * starts a clause, their title and given name), then the cues below. `others` are the other
 * people of the story: a pronoun after one of them is not this one's.
 */
export function inferGender(
  text: string,
  name: string,
  aliases: string[] = [],
  others: string[] = [],
): Gender | null {
  if (!name.trim() || !text.trim()) return null;
  return (
    genderByVotes(text, { name, aliases }, others) ??
    genderByName(name.trim()) ??
    genderFromCues(text, name, aliases, others)
  );
}

/**
 * The gender the text gives the person `name` (also named `aliases`), or null when unsure.
 * `others` are the other people of the story: a pronoun after one of them is not this one's.
 */
function genderFromCues(
  text: string,
  name: string,
  aliases: string[] = [],
  others: string[] = [],
): Gender | null {
  const names = [...new Set([name, ...aliases].map((n) => n.trim()).filter(Boolean))];
  if (names.length === 0) return null;
  const otherPeople = others.filter((other) => other && !names.includes(other));
  text = asSpeech(text);
  const described: Scores = { female: 0, male: 0 };
  describedAs(text, names, described);
  addressedBySurname(text, name, otherPeople, described);
  // What the text says the person is outweighs the pronouns around them.
  if (described.female !== described.male) {
    return described.female > described.male ? 'female' : 'male';
  }
  const votes: Scores = { female: 0, male: 0 };
  pronounVotes(text, names, otherPeople, votes);
  const total = votes.female + votes.male;
  // A clear majority: two thirds of the votes (one lone vote is enough when it is alone).
  if (
    total > 0 &&
    Math.max(votes.female, votes.male) * 3 >= total * 2 &&
    votes.female !== votes.male
  ) {
    return votes.female > votes.male ? 'female' : 'male';
  }
  if (total > 0) return null;
  const last = name.trim().slice(-1);
  if (FEMALE_GIVEN.has(last)) return 'female';
  if (MALE_GIVEN.has(last)) return 'male';
  return null;
}

/**
 * The gender a role's own description gives (「女，十八岁，长发」「十六岁的少年」): a
 * chat model's look says it first, per its prompt; a person's description of a role they add.
 */
export function describedGender(description: string): Gender | null {
  const female =
    [...description.matchAll(new RegExp(`${FEMALE_NOUN}|女性|她`, 'gu'))].length +
    (/^\s*女(?:[，,、。\s]|$)/u.test(description) ? 2 : 0);
  const male =
    [...description.matchAll(new RegExp(`${MALE_NOUN}|男性|他(?![们人乡日物])`, 'gu'))].length +
    (/^\s*男(?:[，,、。\s]|$)/u.test(description) ? 2 : 0);
  if (female === male) return null;
  return female > male ? 'female' : 'male';
}

/** 性别 as a select offers it: 'unknown' stands for a role's null (the text does not say). */
export const GENDER_CHOICES = [
  { value: 'female', label: '女' },
  { value: 'male', label: '男' },
  { value: 'unknown', label: '未知' },
] as const;
export type GenderChoice = (typeof GENDER_CHOICES)[number]['value'];
export const genderChoiceOf = (gender: Gender | null): GenderChoice => gender ?? 'unknown';
export const genderOfChoice = (choice: GenderChoice): Gender | null =>
  choice === 'unknown' ? null : choice;

/**
 * The gender of each speaker of a story or script: the role of that name when there is one (what
 * the creator set or extraction found), else what the text says of the name (the other speakers
 * tell whose pronoun is whose); the anime narrator is nobody, so its voice alternates with the
 * others'. The server assigns default voices with it, and the pages preselect voices and
 * estimate lengths with it, so both pick the same voices.
 */
export function speakerGenders(
  speakers: readonly string[],
  roles: ReadonlyArray<{ name: string; gender: Gender | null }>,
  text: string,
): (speaker: string) => Gender | null {
  const byName = new Map(roles.map((role) => [role.name, role]));
  const genders = new Map(
    speakers.map((speaker) => {
      const role = byName.get(speaker);
      if (role) return [speaker, role.gender] as const;
      if (speaker === ANIME_NARRATOR) return [speaker, null] as const;
      const others = speakers.filter((other) => other !== speaker && other !== ANIME_NARRATOR);
      return [speaker, inferGender(text, speaker, [], others)] as const;
    }),
  );
  return (speaker) => genders.get(speaker) ?? null;
}
