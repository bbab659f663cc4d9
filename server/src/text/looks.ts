import type { Person } from './names';
import { mentionResolver, type Gender } from './speakers';

/**
 * A role's look (外貌设定) from the clauses that describe it: clothes, face, hair, age, build,
 * bearing. Each describing clause goes to the person the sentence is about at that point: the
 * one a clause names, the one a 他/她 stands for, or the newcomer a person noun introduces
 * (只见一个白衣少女……她叫苏清雪); never simply to the first person of the sentence.
 */

/** What a look is made of. */
const LOOK_CUE =
  /衣|袍|裙|衫|褂|袄|甲|装|服|靴|鞋|帽|冠|簪|钗|钿|发|辫|鬓|眉眼|眉目|眉心|眸|瞳|脸蛋|面容|面庞|容貌|容颜|五官|皮肤|肌肤|身材|身形|身量|身姿|个子|身高|高大|魁梧|瘦|胖|苗条|纤细|娇小|岁|年纪|年约|出头|来岁|胡|须|疤|痣|气质|模样|长相|相貌|样貌|眼镜|围巾|斗笠|兜帽|眼罩|短刀|长剑|令牌|玉带|腰间|赤着|背上|英俊|俊朗|俊美|俊秀|秀丽|美丽|漂亮|清秀|清丽|冷艳|憔悴|苍老|稚嫩|白净|黝黑|西装|衬衫|卫衣|外套|风衣|马尾|短发|长发|银发|白发|黑发|珠翠|革履|脏兮兮|苍白|发紫/u;
/** Clauses about what someone does or feels, though they hold a cue word. */
const NOT_LOOK =
  /看|望|瞪|眨|眯|挑了|皱|沉下|变了|僵|白了|红了|使眼色|推了推|笑了|点头|摇头|说|道|问|喊|转身|走|跑|坐下|站起|拍|递|接过|拿|抓|拽|握|冲|扑|撞|气得|倒竖|发现|发出|发生|出发|发呆|穿过|穿越|头发丝|脸色一|脸色顿时|笑容/u;

export const LOOK_CHARS = 80;

interface Span {
  text: string;
  start: number;
}

function clausesOf(text: string): Span[] {
  const out: Span[] = [];
  for (const match of text.matchAll(/[^，,；;：:。！？!?\n“”「」『』]+[，,；;：:。！？!?]?/gu))
    out.push({ text: match[0], start: match.index ?? 0 });
  return out;
}

/** Looks of every person, by name. */
export function describeLooks(
  text: string,
  people: readonly Person[],
  genderOf: (name: string) => Gender | null,
): Map<string, string> {
  const { firstIn } = mentionResolver(text, people, genderOf);
  const quoted = [...text.matchAll(/[“「『][^”」』]*[”」』]/gu)].map((m) => [
    m.index ?? 0,
    (m.index ?? 0) + m[0].length,
  ]);
  const inQuote = (at: number) => quoted.some(([s, e]) => at > (s ?? 0) && at < (e ?? 0));
  const looks = new Map<string, string[]>();
  const give = (name: string | null, clause: string) => {
    if (!name) return;
    const list = looks.get(name) ?? [];
    const clean = clause.replace(/[。！？!?…，,；;：:\s]+$/u, '').trim();
    if (clean && !list.includes(clean)) list.push(clean);
    looks.set(name, list);
  };
  // Who the narration is about, clause after clause; a sentence without a subject goes on
  // with the last one (苏清雪一袭白衣。眉眼清冷……).
  let topic: string | null = null;
  for (const clause of clausesOf(text)) {
    if (inQuote(clause.start)) continue;
    const who = firstIn(clause.start, clause.start + clause.text.length);
    if (who) topic = who;
    if (LOOK_CUE.test(clause.text) && !NOT_LOOK.test(clause.text)) give(topic, clause.text);
  }
  const result = new Map<string, string>();
  for (const person of people) {
    let look = '';
    for (const clause of looks.get(person.name) ?? []) {
      const next = look ? `${look}，${clause}` : clause;
      if (Array.from(next).length > LOOK_CHARS) break;
      look = next;
    }
    result.set(person.name, look ? `${look}。` : '');
  }
  return result;
}
