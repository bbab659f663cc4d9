import { Type } from 'typebox';
import { characterNames, splitSentences } from '../text/analysis';
import { askJson, type ChatModel } from '../providers/chat';
import { ProviderError } from '../providers/errors';

export interface ExtractedRole {
  name: string;
  description: string;
}

export const LOCAL_EXTRACTION_ENGINE = '本地角色提取';

const MAX_ROLES = 12;
const DESCRIPTION_CHARS = 80;
/** A model reads this much of a long text: the cast of a story appears early. */
const MODEL_TEXT_CHARS = 12_000;

/** A name spoken before 说/道/问… at the start of a clause: 「林动说」「苏柔笑道」. */
const SPEAKER =
  /(?:^|[\s，。！？；：、“”「」『』…—])(\p{Script=Han}{2,3}?)(?:笑着|冷冷地|轻声|大声|低声)?(?:说道|笑道|问道|答道|喊道|叫道|说|问|喊)/gu;
/** Words that stand where a speaker does but are not names. */
const NOT_A_NAME =
  /^(?:他们|她们|我们|你们|大家|众人|有人|对方|突然|然后|于是|接着|只是|只听|听到|心里|心中|自己|一边|这时|此时|那人|老人|少年|少女|男人|女人|母亲|父亲|妈妈|爸爸)$|[的了着是在不这那我你他她它一和与把被就都也还又看想走要会能]/u;
/** Sentences that say what a person looks like or is. */
const DESCRIBES = /是|穿|身|长|岁|脸|眼|发|头|个子|模样|少年|少女|男子|女子|老人|孩子/u;

function countOf(text: string, name: string): number {
  return text.split(name).length - 1;
}

/** A short description from the sentences around the role's first mentions. */
function describe(sentences: string[], name: string): string {
  const mentions = sentences.filter((s) => s.includes(name)).slice(0, 5);
  const sentence = mentions.find((s) => DESCRIBES.test(s.replace(name, ''))) ?? mentions[0] ?? '';
  const chars = Array.from(sentence.trim());
  return chars.length > DESCRIPTION_CHARS
    ? `${chars.slice(0, DESCRIPTION_CHARS - 1).join('')}…`
    : chars.join('');
}

/**
 * The offline heuristic: likely names from jieba (person-name tags over surname-led runs that
 * recur, see text/analysis.ts) and the speakers of 「X说」-like clauses, ranked by
 * how often they appear; each described by a sentence near its first mentions.
 */
export function extractRolesLocally(text: string, max = MAX_ROLES): ExtractedRole[] {
  const candidates = new Set(characterNames(text, max * 2));
  const speakers = new Map<string, number>();
  for (const match of text.matchAll(SPEAKER)) {
    const name = match[1] ?? '';
    if (!NOT_A_NAME.test(name)) speakers.set(name, (speakers.get(name) ?? 0) + 1);
  }
  for (const [name, times] of speakers) {
    // Once as a speaker is a name when it is named elsewhere too.
    if (times >= 2 || countOf(text, name) >= 2) candidates.add(name);
  }
  // A short name inside a longer one (林 and 林动) is the same person: keep the longer.
  const names = [...candidates].filter(
    (name) => ![...candidates].some((other) => other !== name && other.includes(name)),
  );
  const sentences = splitSentences(text);
  return names
    .map((name) => ({ name, count: countOf(text, name) }))
    .sort((a, b) => b.count - a.count || text.indexOf(a.name) - text.indexOf(b.name))
    .slice(0, max)
    .map(({ name }) => ({ name, description: describe(sentences, name) }));
}

const ModelRoles = Type.Object({
  roles: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 32 }),
      description: Type.String({ maxLength: 300 }),
    }),
    { maxItems: 30 },
  ),
});

const SYSTEM = [
  '你是漫画与动画分镜的角色设定助手。',
  '从用户给出的故事中找出有名字的出场人物，为每个人物写一句固定的外貌设定',
  '（性别、大致年龄、发型发色、服饰、体貌特征），这句设定会用在每一张画面里，让人物始终一致。',
  '故事没有写明的外貌，按人物身份合理补全。',
  '输出格式：{"roles":[{"name":"人物名","description":"外貌设定"}]}',
].join('');

/**
 * Roles of a text: through the chat model when one is configured (JSON checked against a
 * schema, repaired or asked again by askJson), else, or when the model fails, the local
 * heuristic; `engine` says which, and why the model was not used when it failed.
 */
export async function extractRoles(
  text: string,
  model: ChatModel | null,
  signal: AbortSignal,
): Promise<{ roles: ExtractedRole[]; engine: string }> {
  if (model) {
    try {
      const answer = await askJson(
        model,
        {
          system: SYSTEM,
          user: text.slice(0, MODEL_TEXT_CHARS),
          schema: ModelRoles,
          what: '角色列表',
        },
        signal,
      );
      const seen = new Set<string>();
      const roles = answer.roles
        .map((role) => ({ name: role.name.trim(), description: role.description.trim() }))
        .filter((role) => role.name && !seen.has(role.name) && seen.add(role.name))
        .slice(0, MAX_ROLES);
      return { roles, engine: model.label };
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      const why = error instanceof ProviderError ? error.message : '文本模型服务出错';
      return {
        roles: extractRolesLocally(text),
        engine: `${LOCAL_EXTRACTION_ENGINE}（${why}）`,
      };
    }
  }
  return { roles: extractRolesLocally(text), engine: LOCAL_EXTRACTION_ENGINE };
}
