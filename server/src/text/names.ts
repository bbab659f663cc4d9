import { segmenter } from './segmenter';
import { MANNERS, NOBODY, SPEECH_AFTER, SPEECH_BEFORE, stripManners } from './speech-words';

/**
 * The people of a story, named in full: 慕容晴, not 慕容 and 容晴; 苏清雪, not the family 苏家.
 * Offline and deterministic. A name is found where stories name people (a surname and a given
 * name, the subject of a speech verb, an introduction such as 名叫…) and kept only when it is a
 * person: families (某家), groups (众人, 弟子们), places and bare titles are not.
 */

export interface Person {
  name: string;
  /** Other names the text uses for the same person: 晴儿, 苏姑娘, 清雪. */
  aliases: string[];
  /** Mentions of the name and its aliases. */
  count: number;
  /** Where the text first names them. */
  firstAt: number;
}

const COMPOUND_SURNAMES = [
  '慕容',
  '欧阳',
  '上官',
  '司马',
  '诸葛',
  '东方',
  '南宫',
  '独孤',
  '令狐',
  '皇甫',
  '公孙',
  '端木',
  '轩辕',
  '夏侯',
  '宇文',
  '长孙',
  '尉迟',
  '司徒',
  '西门',
  '百里',
  '呼延',
  '澹台',
  '钟离',
  '拓跋',
];
const SURNAMES = new Set(
  Array.from(
    '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤萧温柳凌洛云傅霍裴楚燕宁顾岳齐秋季纪南阮殷祝萧庄晏卫蓝商姬宫谷桑',
  ),
);
/** Characters that never end or fill a given name (grammar words, verbs of the narration). */
const NOT_IN_NAMES =
  /[的了着过是在不这那我你他她它和与把被就都也还又别啦嘛哇哈说道问看想走来去到从对给让要会能得地么呢吗吧啊呀哦嗯个们些已被将更很太最便才却并只而但公医]/u;
/** Verbs that follow a name often enough to look like its last character (林默笑, 林默推). */
const NOT_LAST_IN_NAMES =
  /[一笑点摇接推站坐抬低拿放拉转回跑叹愣冷沉皱眯咬望盯伸握递扶抱拍喊哭怔顿轻淡完]/u;
/** Titles and kin words: with a surname they address someone, alone they name nobody. */
const TITLES = [
  '姑娘',
  '公子',
  '小姐',
  '少爷',
  '夫人',
  '先生',
  '大人',
  '老爷',
  '娘子',
  '相公',
  '大哥',
  '大姐',
  '师兄',
  '师姐',
  '师弟',
  '师妹',
  '师父',
  '师傅',
  '师尊',
  '前辈',
  '掌柜',
  '管家',
  '老板',
  '总裁',
  '经理',
  '队长',
  '警官',
  '医生',
  '老师',
  '同学',
  '将军',
  '公公',
  '嬷嬷',
  '姐姐',
  '妹妹',
  '哥哥',
  '弟弟',
  '阿姨',
  '叔叔',
  '伯伯',
  '大娘',
  '老头',
  '老太',
  '丫头',
  '小子',
  '大师',
  '法师',
  '律师',
  '少年',
  '少女',
  '护士',
  '班长',
  '老太太',
  '奶奶',
  '爷爷',
  '阿婆',
  '阿公',
  '阿妈',
  '阿爸',
  '阿哥',
  '阿姐',
  '哥哥',
  '姐姐',
  '奶奶',
  '娘娘',
  '妈妈',
  '爸爸',
  '工',
  '兄',
  '姐',
  '哥',
  '叔',
  '伯',
  '婶',
  '总',
  '董',
  '少',
  '爷',
  '老',
  '队',
  '家',
  '府',
  '门',
  '们',
  '族',
  '军',
];
/**
 * Titles that, after a surname nobody else in the story has, are how the story names a person
 * (王总, 韩医生, 王婶, 傅老太太): the address is then the role's name.
 */
const KIN_TITLES = ['老太太', '奶奶', '爷爷', '大娘', '婶', '叔', '伯'];
const NAMING_TITLES = [
  '老太太',
  '医生',
  '经理',
  '老板',
  '掌柜',
  '管家',
  '队长',
  '班长',
  '老师',
  '公公',
  '嬷嬷',
  '大娘',
  '奶奶',
  '爷爷',
  '总',
  '婶',
  '叔',
  '伯',
];
const TITLE_WORDS = new Set(TITLES.filter((t) => t.length >= 2));
/** A family, a clan, a group or a house: 苏家, 徐氏, 弟子们. */
const GROUP_ENDING = /[家们族府门派宗帮会军]$/u;
/** Place words: a name ending so and used as a place is not a person. */
const PLACE_ENDING = /[城镇村市县省州国山峰谷河江湖海岛宫殿阁楼院寺庙庄寨堂店街路巷关岭林园]$/u;
const AT_PLACE = /(?:在|到|去|回|进|入|出|离开|来到|走进|回到|前往|赶往|来自|位于|住在)$/u;

/** What a person is, before their name: 丫鬟春桃, 皇后萧明仪. */
const ROLE_NOUNS = new Set([
  '丫鬟',
  '丫头',
  '侍女',
  '宫女',
  '太监',
  '嬷嬷',
  '皇后',
  '皇上',
  '贵妃',
  '公主',
  '世子',
  '王爷',
  '书生',
  '少年',
  '少女',
  '师兄',
  '师姐',
  '师弟',
  '师妹',
  '师父',
  '管家',
  '掌柜',
  '护卫',
  '侍卫',
  '将军',
  '大夫',
  '郎中',
  '老板',
  '经理',
  '医生',
  '警官',
  '队长',
  '同学',
  '老师',
  '姐姐',
  '妹妹',
  '哥哥',
  '弟弟',
  '母亲',
  '父亲',
  '妻子',
  '丈夫',
  '女儿',
  '儿子',
  '助理',
  '秘书',
  '总裁',
  '保镖',
]);

/** Titles one person holds in a scene: said once before the name, later alone for them. */
const UNIQUE_TITLES = [
  '皇后',
  '皇上',
  '陛下',
  '太后',
  '王爷',
  '公主',
  '世子',
  '师父',
  '师尊',
  '掌门',
  '宗主',
  '掌柜',
  '班长',
  '导师',
  '队长',
  '老板',
  '总监',
  '经理',
  '主任',
  '校长',
  '教官',
  '船长',
  '将军',
  '大人',
];

/** Words that introduce a name: 名叫慕容晴, 她叫阿瑶, 正是叶昭. */
const INTRODUCED =
  /(?:名叫|叫做|名为|名唤|唤作|我叫|她叫|他叫|我是|正是|便是|乃是|就是)(\p{Script=Han}{2,4}?)(?=[，。！？、；：的”」』\s]|$)/gu;
/** Leading words of a speaker clause that are not the speaker: 只听青崖道. */
const CLAUSE_LEAD =
  /^(?:只听|只见|就听|却听|听见|便听|这时|此时|那时|随后|接着|然后|于是|突然|忽然|旁边的|一旁的|身旁的|对面的|门外的|而|但|可|却|便|又|也)+/u;

function surnameAt(chars: string[], i: number): number {
  const two = `${chars[i] ?? ''}${chars[i + 1] ?? ''}`;
  if (COMPOUND_SURNAMES.includes(two)) return 2;
  return SURNAMES.has(chars[i] ?? '') ? 1 : 0;
}

const isHan = (s: string) => /^\p{Script=Han}+$/u.test(s);

function occurrences(text: string, name: string): number {
  if (!name) return 0;
  return text.split(name).length - 1;
}

/** Is `word` something jieba knows as an ordinary word (方向, 高兴), not a name? */
function isDictionaryWord(word: string): boolean {
  const tags = segmenter().jieba.tag(word, false);
  if (tags.length !== 1) return false;
  const tag = tags[0]?.tag ?? '';
  return !tag.startsWith('nr') && tag !== 'x';
}

/** An ordinary noun (王冠, 律师), never a name even after a speech verb. */
function commonNoun(word: string): boolean {
  const tags = segmenter().jieba.tag(word, false);
  return tags.length === 1 && /^(?:n|nz|s|f)$/u.test(tags[0]?.tag ?? '');
}

/** Could this string be a person's name at all (not a family, group, place, title or pronoun)? */
function nameShaped(name: string): boolean {
  if (name.length < 2 || name.length > 4 || !isHan(name)) return false;
  if (NOBODY.has(name) || TITLE_WORDS.has(name)) return false;
  if (GROUP_ENDING.test(name)) return false;
  if (/^[他她我你它在是的了和与把被就都也还又这那]/u.test(name)) return false;
  if (MANNERS.some((m) => m.length >= 2 && name.endsWith(m))) return false;
  const given = name.slice(surnameAt(Array.from(name), 0) || 1);
  if (NOT_IN_NAMES.test(given)) return false;
  if (given.length >= 2 && NOT_LAST_IN_NAMES.test(given.slice(-1))) return false;
  if (given.length === 1 && /[一]/u.test(given)) return false;
  // 苏姑娘, 林兄: an address, resolved to the person as an alias.
  if (TITLES.some((t) => name.endsWith(t) && name.length - t.length <= 2 && name.length > t.length))
    return false;
  return true;
}

/** What follows a person and never a place: 走到韩铁山对面 is a man, 走到青云山下 a place. */
const PERSON_AFTER =
  /^(?:对面|身边|面前|旁边|身后|身前|手里|手中|怀里|耳边|眼前|跟前|的手|的脸|的眼)/u;

/** Used as a place somewhere (在青云宗, 到天海市) and ending like one. */
function usedAsPlace(text: string, name: string): boolean {
  if (!PLACE_ENDING.test(name)) return false;
  let at = text.indexOf(name);
  while (at >= 0) {
    const after = text.slice(at + name.length, at + name.length + 3);
    if (AT_PLACE.test(text.slice(Math.max(0, at - 4), at)) && !PERSON_AFTER.test(after))
      return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

/** The speaker of each speech clause next to a quotation, as the text spells it (raw). */
export function speakerSlots(text: string): string[] {
  const slots: string[] = [];
  const quote = /[“「]([^”」]*)[”」]/gu;
  for (const match of text.matchAll(quote)) {
    const start = match.index ?? 0;
    const before = text.slice(Math.max(0, start - 24), start);
    const clauseBefore = before.split(/[。！？；\n”」]/u).pop() ?? '';
    const b = SPEECH_BEFORE.exec(clauseBefore.split(/[，,]/u).pop() ?? clauseBefore);
    if (b) slots.push(b[1] ?? '');
    const after = text.slice(start + match[0].length, start + match[0].length + 24);
    const a = SPEECH_AFTER.exec(after.split(/[。！？；\n“「]/u)[0] ?? '');
    if (a) slots.push(a[1] ?? '');
  }
  return slots
    .map((slot) => stripManners(slot.replace(CLAUSE_LEAD, '')).replace(CLAUSE_LEAD, ''))
    .filter(Boolean);
}

/**
 * The people of a text, most mentioned first (ties: who comes first). `max` caps the list.
 */
export function findPeople(text: string, max = 12): Person[] {
  const chars = Array.from(text);
  const counts = new Map<string, number>();
  // Surname-led runs: a surname and a one- or two-character given name.
  for (let i = 0; i < chars.length - 1; i++) {
    const surname = surnameAt(chars, i);
    if (!surname) continue;
    for (const given of [1, 2]) {
      const gram = chars.slice(i, i + surname + given).join('');
      if (Array.from(gram).length === surname + given && isHan(gram)) {
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    }
  }
  const strong = new Map<string, number>();
  const addStrong = (name: string) => strong.set(name, (strong.get(name) ?? 0) + 1);
  for (const slot of speakerSlots(text)) {
    // The longest known name that ends the slot (苏清雪 in 苏清雪冷哼一声), else the slot.
    const run = /\p{Script=Han}{2,4}$/u.exec(slot)?.[0] ?? '';
    if (run) addStrong(run);
  }
  const introducedNames = new Set<string>();
  for (const match of text.matchAll(INTRODUCED)) introducedNames.add(match[1] ?? '');
  // Who a sentence is about: 江海在渡口等了三天 (a name jieba also knows as a word, 江海).
  const subjects = new Map<string, number>();
  for (const match of text.matchAll(/(?:^|[。！？\n”」』]\s*)(\p{Script=Han}{2,8})/gu)) {
    const tags = segmenter().jieba.tag(match[1] ?? '', true);
    let [first, next] = tags;
    // 欧阳|烈走: a surname the segmenter cut off its given name.
    if (
      first &&
      next &&
      first.word.length === surnameAt(Array.from(first.word), 0) &&
      next.word.length <= 2
    ) {
      const given = Array.from(next.word)[0] ?? '';
      const rest = next.word.slice(given.length);
      first = { word: first.word + given, tag: 'x' };
      next = rest ? { word: rest, tag: 'v' } : tags[2];
    }
    let word = first?.word ?? '';
    // The segmenter glues a verb to a name it does not know (小满端|着): the name is the rest.
    if (first?.tag === 'x' && word.length === 3 && /^u/u.test(next?.tag ?? ''))
      word = word.slice(0, 2);
    else if (!/^[vdpum]/u.test(next?.tag ?? '')) word = '';
    if (word.length >= 2 && word.length <= 4) subjects.set(word, (subjects.get(word) ?? 0) + 1);
  }
  for (const [word, n] of subjects) {
    // Once is enough for a full name the segmenter does not know (傅司寒一身深灰色西装).
    const full = surnameAt(Array.from(word), 0) > 0 && !isDictionaryWord(word);
    if (n >= 2 || full) addStrong(word);
  }
  // Who is spoken to: “凯恩，你上个月…”, “晚晚，志愿表…”.
  for (const match of text.matchAll(/[“「](\p{Script=Han}{2,3})[，！？,!?]/gu)) {
    const word = match[1] ?? '';
    const doubled = /^(\p{Script=Han})\1$/u.test(word) && !isDictionaryWord(word);
    const shaped = surnameAt(Array.from(word), 0) > 0 || doubled || /^[阿小]/u.test(word);
    if (shaped || occurrences(text, word) >= 3) addStrong(word);
  }
  // A name after what the person is: 丫鬟春桃, 宫女锦瑟, 皇后萧明仪, 书生沈言.
  const tokens = segmenter().jieba.tag(text, true);
  for (let i = 0; i + 1 < tokens.length; i++) {
    const what = tokens[i]?.word ?? '';
    const next = tokens[i + 1];
    if (![...ROLE_NOUNS].some((noun) => what.endsWith(noun)) || !next) continue;
    const after = tokens[i + 2]?.tag ?? '';
    const word = next.word;
    if (
      (next.tag === 'x' ||
        next.tag.startsWith('nr') ||
        next.tag === 'n' ||
        surnameAt(Array.from(word), 0) > 0) &&
      word.length >= 2 &&
      word.length <= 3 &&
      /^[vdipu]/u.test(after) &&
      (occurrences(text, word) >= 2 || surnameAt(Array.from(word), 0) > 0)
    )
      introducedNames.add(word);
  }
  for (const name of introducedNames) addStrong(name);
  // Unknown words of the segmenter (names it has never seen) and words it tags as names.
  const tagged = new Map<string, number>();
  for (const { word, tag } of segmenter().jieba.tag(text, true)) {
    if (
      (tag === 'x' || tag.startsWith('nr')) &&
      word.length >= 2 &&
      word.length <= 3 &&
      isHan(word)
    )
      tagged.set(word, (tagged.get(word) ?? 0) + 1);
  }

  const candidates = new Set<string>();
  for (const [gram, n] of counts) {
    if (n < 2 || !nameShaped(gram) || isDictionaryWord(gram)) continue;
    const surname = surnameAt(Array.from(gram), 0);
    const givenLength = gram.length - surname;
    const extensions = (g: string) => {
      const found = [...counts].filter(
        ([longer]) => longer.length === g.length + 1 && longer.startsWith(g) && nameShaped(longer),
      );
      return found.some(([, c]) => c >= 2) ? found : [];
    };
    if (givenLength === 1) {
      // 沈青 is the start of 沈青禾 (and 林知 of the sisters 林知意 and 林知婉): keep the longer
      // names when they account for most uses.
      const covered = extensions(gram).reduce((sum, [, c]) => sum + c, 0);
      if (covered >= n * 0.7) continue;
    } else {
      const shorterName = gram.slice(0, -1);
      const shorter = counts.get(shorterName) ?? 0;
      const siblings = extensions(shorterName).reduce((sum, [, c]) => sum + c, 0);
      if (siblings < shorter * 0.7) continue;
    }
    candidates.add(gram);
  }
  for (const [name] of strong) {
    // 苏清雪冷 from 苏清雪冷哼一声: the known name it starts with.
    const known = [...candidates].find((c) => name !== c && name.startsWith(c));
    if (known) continue;
    // 半晌才道, 忽然问: an ordinary word in a speaker's place is a name only when it is
    // shaped like one (夏天, 许愿 and 小满 are; 半晌 is not).
    const leads = surnameAt(Array.from(name), 0) > 0 || /^[阿小]/u.test(name);
    if (!introducedNames.has(name)) {
      if (isDictionaryWord(name) && (!leads || commonNoun(name))) continue;
      if (!leads && (strong.get(name) ?? 0) < 2 && occurrences(text, name) < 2) continue;
    }
    if (nameShaped(name) && !usedAsPlace(text, name)) candidates.add(name);
  }
  for (const [word, n] of tagged) {
    const leads = surnameAt(Array.from(word), 0) > 0 || /^[阿小]/u.test(word);
    if ((n >= 2 && leads) || (n >= 3 && nameShaped(word)))
      if (nameShaped(word) && !commonNoun(word))
        if (
          !usedAsPlace(text, word) &&
          ![...candidates].some((c) => c.includes(word) || word.includes(c))
        )
          candidates.add(word);
  }

  // Named once, where names stand (傅司寒一身西装, 旁边的林知婉掩着嘴, 姐姐宋晚晴): a full
  // name of surname and two characters that no word of the dictionary explains.
  const NAME_BEFORE = new RegExp(
    `(?:^|[。！？\\n”」』：，]|的|是|${[...ROLE_NOUNS].join('|')})$`,
    'u',
  );
  for (const [gram, n] of counts) {
    const surname = surnameAt(Array.from(gram), 0);
    if (n !== 1 || gram.length - surname !== 2 || candidates.has(gram)) continue;
    if (!nameShaped(gram) || isDictionaryWord(gram) || isDictionaryWord(gram.slice(surname)))
      continue;
    // 凌晨三点, 黄色制服, 齐耳短发: a word that starts with a surname's character is no name.
    if (
      isDictionaryWord(gram.slice(0, surname + 1)) ||
      segmenter().jieba.cut(gram, false)[0] !== gram.slice(0, surname)
    )
      continue;
    if ([...candidates].some((c) => gram.startsWith(c) || c.startsWith(gram))) continue;
    const at = text.indexOf(gram);
    const before = text.slice(Math.max(0, at - 4), at);
    const next = text.slice(at + gram.length, at + gram.length + 2);
    const tags = segmenter().jieba.tag(next, false);
    if (
      NAME_BEFORE.test(before) &&
      /^[vdpmu]/u.test(tags[0]?.tag ?? '') &&
      !usedAsPlace(text, gram)
    )
      candidates.add(gram);
  }

  // 王总, 韩医生: a surname and a title is the person's name when nobody else has the surname
  // and the text has them act or speak.
  for (let i = 0; i < chars.length - 1; i++) {
    const surname = surnameAt(chars, i);
    if (!surname) continue;
    const rest = chars.slice(i + surname, i + surname + 3).join('');
    const title = NAMING_TITLES.find((t) => rest.startsWith(t));
    if (!title) continue;
    const address = chars.slice(i, i + surname).join('') + title;
    // 何经理 is 何必 (an alias), but 傅老太太 is not her grandson 傅司寒: kin titles name
    // another generation of the family.
    const kin = KIN_TITLES.includes(title);
    const sameSurname =
      !kin && [...candidates].some((c) => c.startsWith(address.slice(0, surname)) && c !== address);
    const atStart = new RegExp(`(?:^|[。！？\\n”」』]|的)${address}`, 'u').test(text);
    if (
      !sameSurname &&
      ((strong.get(address) ?? 0) > 0 || occurrences(text, address) >= 2 || atStart)
    )
      candidates.add(address);
  }
  // 糖糖, 晚晚: a doubled character is a pet name when the text has it speak or act, or
  // names it again and again.
  const doubled = new Set([
    ...strong.keys(),
    ...[...text.matchAll(/(\p{Script=Han})\1/gu)]
      .map((m) => m[0])
      .filter((name) => occurrences(text, name) >= 3),
  ]);
  for (const name of doubled) {
    if (/^(\p{Script=Han})\1$/u.test(name) && !isDictionaryWord(name) && !TITLE_WORDS.has(name))
      candidates.add(name);
  }

  // A name inside a longer one (林 and 林动) is the same person: keep the longer, unless the
  // shorter is mostly used on its own (then both are people: 林默 and 林默然 are rare).
  let names = [...candidates].filter(
    (name) =>
      ![...candidates].some(
        (other) =>
          other !== name &&
          other.includes(name) &&
          occurrences(text, other) >= occurrences(text, name) * 0.5,
      ),
  );
  names = names.filter((name) => !usedAsPlace(text, name));
  // A longer "name" that is a known name followed by a verb or adverb (沈言苦) goes.
  names = names.filter(
    (name) =>
      !names.some(
        (other) => other !== name && name.startsWith(other) && name.length > other.length,
      ),
  );

  // 月月 is 沈月's pet name, not a person of their own.
  names = names.filter(
    (name) => !names.some((other) => other !== name && petForms(other).includes(name)),
  );

  const people = names.map((name) => {
    const aliases = aliasesOf(text, name, names);
    const count =
      occurrences(text, name) + aliases.reduce((sum, alias) => sum + occurrences(text, alias), 0);
    return { name, aliases, count, firstAt: text.indexOf(name) };
  });
  return people.sort((a, b) => b.count - a.count || a.firstAt - b.firstAt).slice(0, max);
}

/** Pet forms of a given name: 晴儿, 川子, 野哥, 蓁蓁. */
function petForms(name: string): string[] {
  const last = Array.from(name).pop() ?? '';
  return [`${last}儿`, `${last}子`, `${last}哥`, `${last}姐`, `${last}${last}`];
}

/** Other names of one person that the text uses: 晴儿, 苏姑娘, 清雪 (of 苏清雪). */
function aliasesOf(text: string, name: string, all: readonly string[]): string[] {
  const chars = Array.from(name);
  const surnameLength = surnameAt(chars, 0);
  const surname = chars.slice(0, surnameLength).join('');
  const given = chars.slice(surnameLength).join('');
  const aliases = new Set<string>();
  // 皇后萧明仪 … 皇后微微眯起眼睛: a title said once with the name stands for that person,
  // when nobody else is given it.
  for (const title of UNIQUE_TITLES) {
    if (!text.includes(`${title}${name}`)) continue;
    const others = all.filter((other) => other !== name && text.includes(`${title}${other}`));
    if (others.length === 0 && occurrences(text, title) > 1) aliases.add(title);
  }
  const shareSurname = all.filter(
    (other) => surname && other !== name && other.startsWith(surname),
  );
  if (surname && shareSurname.length === 0) {
    for (const title of TITLES) {
      if (title.length < 1 || GROUP_ENDING.test(title)) continue;
      const address = `${surname}${title}`;
      if (address.length >= 2 && occurrences(text, address) > 0 && !all.includes(address))
        aliases.add(address);
    }
  }
  const last = chars[chars.length - 1] ?? '';
  for (const pet of petForms(name)) {
    if (pet !== name && !name.endsWith(pet) && occurrences(text, pet) > 0 && given.length >= 1)
      if (!all.some((other) => other !== name && other.endsWith(last))) aliases.add(pet);
  }
  if (given.length === 2 && surnameLength > 0) {
    // The given name on its own, where it is not part of the full name.
    const alone = occurrences(text, given) - occurrences(text, name);
    if (alone > 0 && !all.some((other) => other !== name && other.includes(given)))
      aliases.add(given);
  }
  if (/^阿/u.test(name) && name.length === 2) {
    // 阿瑶 is also 瑶瑶 or 小瑶 in the same story.
    for (const pet of [`${last}${last}`, `小${last}`])
      if (occurrences(text, pet) > 0) aliases.add(pet);
  }
  return [...aliases].filter((alias) => alias !== name);
}
