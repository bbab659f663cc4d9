#!/usr/bin/env node
// A series of comic episodes made from an uploaded book on the embedded defaults (PGlite, local
// offline rendering, no AI key), and another user's single video started in the middle of it:
// episodes per hour, the time to the first episode and to the whole series, each episode's
// render time, how long the other user's video waited, and whether two episodes of the series
// ever rendered at once (SERIES_EPISODES_PER_USER, default 1, says they must not).
//
//   node bench/series.mjs [--chapters 10] [--b-after 2] [--url http://127.0.0.1:8080]
//
// Without --url it starts the product as the README's start command does, on a free port with a
// fresh data folder and an admin token of its own (KOL_ADMIN_TOKEN). With --url the product is
// already running: KOL_ADMIN_TOKEN must hold its admin token (users are made through the admin
// API). Prints figures; asserts nothing on time.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startProduct } from './lib/product.mjs';

const { values } = parseArgs({
  options: {
    chapters: { type: 'string', default: '10' },
    'b-after': { type: 'string', default: '2' },
    url: { type: 'string' },
  },
});
const chapters = Number(values.chapters);
// User B starts its video once this many of A's episodes have succeeded ("in the middle").
const bAfter = Math.min(Number(values['b-after']), chapters - 1);
if (!Number.isInteger(chapters) || chapters < 2 || chapters > 50) {
  throw new Error('--chapters must be a whole number from 2 to 50 (a series has at most 50)');
}
/** The poll of A's series (and of B's video): what every time below is measured with. */
const POLL_MS = 1_000;
/** A run that has not ended by then is stuck: stop rather than poll for ever. */
const DEADLINE_MS = 3 * 60 * 60_000;

process.on('SIGINT', () => process.exit(130));

let adminToken = process.env.KOL_ADMIN_TOKEN;
if (values.url && !adminToken) {
  throw new Error('with --url, set KOL_ADMIN_TOKEN to the running product’s admin token');
}
adminToken ??= randomBytes(16).toString('hex');
const base =
  values.url ?? (await startProduct({ KOL_ADMIN_TOKEN: adminToken }, 'kol-bench-series-'));

// --- HTTP helpers ----------------------------------------------------------------------------

/** Answers the envelope's data, or throws its code and message ({code, msg, data}). */
async function unwrap(pathname, response) {
  const text = await response.text();
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Error(`${pathname}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (envelope.code !== 0) throw new Error(`${pathname}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

async function admin(pathname, body) {
  const response = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return unwrap(pathname, response);
}

/**
 * A new user allowed every video type (every template id, functional level 1, as
 * concurrency.mjs makes them) with `comics` generation counts, signed in: `call(method,
 * pathname, body)` with its session cookie and `platform: pc`, and `upload` for multipart.
 */
async function newUser(label, comics) {
  const username = `series_${label}_${Date.now().toString(36)}`;
  const password = 'bench-password';
  await admin('/api/admin/users/create', {
    username,
    password,
    templateIds: [0, 1, 2, 3, 4, 5, 6],
    functionalLevel: 1,
  });
  await admin('/api/admin/quotas/grant', {
    username,
    type: 'comics',
    gen: comics,
    reward: 0,
    merge: 0,
  });
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username, password }),
  });
  await unwrap('/api/user/login', login);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const call = async (method, pathname, body) =>
    unwrap(
      pathname,
      await fetch(`${base}${pathname}`, {
        method,
        headers: {
          cookie,
          platform: 'pc',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    );
  // multipart/form-data: fetch writes the boundary into content-type itself.
  const upload = async (pathname, field, filename, text) => {
    const form = new FormData();
    form.append(field, new Blob([text], { type: 'text/plain' }), filename);
    return unwrap(
      pathname,
      await fetch(`${base}${pathname}`, {
        method: 'POST',
        headers: { cookie, platform: 'pc' },
        body: form,
      }),
    );
  };
  return { username, call, upload };
}

// --- The book -----------------------------------------------------------------------------------

const NUMERALS = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
/** 1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 35 → 三十五 (the headings the book parser splits at). */
function chineseNumber(n) {
  if (n < 10) return NUMERALS[n];
  const tens = Math.floor(n / 10);
  return `${tens === 1 ? '' : NUMERALS[tens]}十${NUMERALS[n % 10]}`;
}

// Sentence parts, rotated through with different strides so that every chapter reads
// differently while the text stays the same from run to run (figures comparable between runs).
// Two named people on every page, 沈清辞 (she) and 萧景珩 (he), so the series' cast reading
// finds them, with their looks in the first chapter as a novel gives them.
const HEROINE = '沈清辞';
const HERO = '萧景珩';
const PLACES = [
  '城南的旧渡口',
  '灯市尽头的茶楼',
  '山腰的破庙',
  '沈家老宅的后院',
  '运河边的石桥',
  '藏书阁的顶层',
  '城外的驿站',
];
const WEATHER = [
  '细雨下了一整夜，青石板上积着浅浅的水',
  '天刚擦黑，远处的钟声一下一下传过来',
  '北风卷着落叶，吹得檐下的灯笼左右摇晃',
  '月亮躲进了云里，四下里只剩虫鸣',
  '晨雾还没有散，河面上白茫茫的一片',
  '午后的日头很毒，街上几乎看不见行人',
];
const OBJECTS = [
  '一封没有署名的信',
  '半块碎裂的玉佩',
  '一把生锈的铜钥匙',
  '一张泛黄的地图',
  '一支折断的发簪',
];
const ARRIVALS = [
  '撑着油纸伞走了进来',
  '推开虚掩的木门',
  '沿着台阶一步步走上来',
  '从人群里挤出来',
  '翻过矮墙轻轻落地',
];
const POSES = [
  '背着手站在窗前',
  '靠着柱子闭目养神',
  '坐在角落里慢慢喝茶',
  '低头擦拭着手里的长剑',
  '倚在栏杆边望着远处',
];
const HIS_LINES = [
  '你来晚了，他们已经知道这件事了。',
  '这东西不该出现在你手里，告诉我是谁给你的。',
  '再往前走一步，就没有回头路了。',
  '我答应过你父亲，无论如何都要护你周全。',
  '今晚之后，城里不会再有人相信我们。',
  '你若信我，就把它交给我，剩下的事我来办。',
];
const HER_LINES = [
  '我不怕，我只想知道当年到底发生了什么。',
  '你总是这样，什么都不肯告诉我。',
  '这一次，我要自己去看个明白。',
  '如果连你都不可信，我还能信谁？',
  '我已经等了十年，不想再等下去了。',
];
const EVENTS = [
  '话音未落，门外忽然传来一阵急促的脚步声。',
  '就在这时，一支冷箭擦着她的耳边钉进了墙里。',
  '远处亮起了火把，一队官兵正朝这边赶来。',
  '桌上的烛火猛地一跳，随即熄灭了。',
  '一个陌生的老人从暗处走出来，手里提着一盏灯。',
  '屋顶的瓦片轻轻响了一声，有人在上面偷听。',
  '河面上漂来一只小船，船头插着一面黑色的旗。',
];
const MEMORIES = [
  '小时候父亲牵着她的手走过这条路',
  '母亲临终前握着她的手说过的那句话',
  '那年冬天他替她挡下的那一刀',
  '十年前那场烧了三天三夜的大火',
  '他第一次叫她名字时有些笨拙的样子',
];
const HOOKS = [
  `${HERO}拔出长剑，挡在了她的身前。`,
  `${HEROINE}把信塞进袖中，转身没入了夜色。`,
  '两人对视一眼，同时朝着后门跑去。',
  `等${HEROINE}回过神来，${HERO}已经不见了踪影。`,
  '她终于明白，真正的对手一直就在身边。',
  `${HERO}低声说了一句“走”，拉着她冲进了雨里。`,
];
const TITLES = ['雨夜来客', '旧信', '渡口', '灯市', '密道', '对峙', '山寺', '真相', '破局', '天明'];

const pick = (list, chapter, stride) => list[(chapter * stride) % list.length];

function chapterText(chapter) {
  const sentences = [];
  if (chapter === 0) {
    // The looks, once: the cast reading takes them into the roles' descriptions.
    sentences.push(
      `${HEROINE}是沈家的独女，今年十九岁，一身素白的长裙，乌黑的长发用一根木簪挽着。`,
      `${HERO}是京城来的年轻捕头，身材高大，穿着一件深青色的劲装，腰间佩着长剑。`,
    );
  }
  sentences.push(
    `${pick(PLACES, chapter, 1)}，${pick(WEATHER, chapter, 5)}。`,
    `${HEROINE}${pick(ARRIVALS, chapter, 3)}，手里紧紧攥着${pick(OBJECTS, chapter, 2)}。`,
    `${HERO}早已等在那里，他${pick(POSES, chapter, 4)}，听见声音才回过头来。`,
    `“${pick(HIS_LINES, chapter, 1)}”${HERO}低声说。`,
    `${HEROINE}摇了摇头，说：“${pick(HER_LINES, chapter, 3)}”`,
    pick(EVENTS, chapter, 2),
    `她想起${pick(MEMORIES, chapter, 3)}，心里一阵发紧。`,
    `${HERO}沉默了很久，才开口道：“${pick(HIS_LINES, chapter + 3, 5)}”`,
    `${HEROINE}看着他的眼睛，轻声说：“${pick(HER_LINES, chapter + 1, 2)}”`,
    pick(HOOKS, chapter, 1),
  );
  return sentences.join('');
}

/** A TXT book as a creator uploads one: title and author lines, an intro, 第N章 headings. */
function bookText(count) {
  const lines = [
    '书名：雨巷灯影',
    '作者：KOL Studio 基准',
    '',
    `沈家独女${HEROINE}收到一封没有署名的信，京城来的捕头${HERO}奉命查一桩十年前的旧案。`,
  ];
  for (let i = 0; i < count; i += 1) {
    lines.push('', `第${chineseNumber(i + 1)}章 ${TITLES[i % TITLES.length]}`, chapterText(i));
  }
  return lines.join('\n');
}

// B's single video: a few sentences, as a creator's own short copy.
const B_TEXT = [
  '林晚站在车站的月台上，手里攥着一张旧车票。',
  '列车进站的声音由远及近，她却没有动。',
  '“你真的要走吗？”陈屿在她身后问。',
  '林晚回过头，笑着说：“这一次，我想自己去看看海。”',
  '车门关上的时候，站台上的灯一盏一盏亮了起来。',
].join('');

// --- The run --------------------------------------------------------------------------------

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mean = (list) => list.reduce((sum, x) => sum + x, 0) / list.length;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const a = await newUser('a', chapters + 2);
const b = await newUser('b', 2);

const book = await a.upload('/api/writing/upload_book', 'file', '雨巷灯影.txt', bookText(chapters));
if (book.chapterCount < chapters) {
  throw new Error(`the book was split into ${book.chapterCount} chapters, not ${chapters}`);
}

const body = {
  type: 0,
  source: { kind: 'book', bookId: book.bookId, fromChapter: 1, toChapter: chapters },
  narration: 'chapter',
};
const plan = await a.call('POST', '/api/series/plan', body);
const createStarted = Date.now();
const draft = await a.call('POST', '/api/series/create', {
  ...body,
  title: plan.title,
  episodeTitles: plan.episodes.map((episode) => episode.title),
  settings: { aspect: '9:16' },
});
const createMs = Date.now() - createStarted;
const cast = await a.call(
  'GET',
  `/api/role/get_roles?taskId=${encodeURIComponent(draft.castTaskId)}`,
);

// Time zero: the start call (the counts are set aside and the first episode starts in it).
const t0 = Date.now();
await a.call('POST', '/api/series/start', { seriesId: draft.seriesId });

/** Per episode index: when the poll first saw it queued, running, succeeded (or failed). */
const seen = new Map(plan.episodes.map((e) => [e.index, {}]));
let mostRunning = 0; // A's episodes in state 'running' in one poll
let mostActive = 0; // A's episodes queued or running in one poll
let firstDoneAt = null;
let seriesDoneAt = null;
let finalSeries = null;
/** B's video: its work, when gen_video was called, first seen running, finished. */
const bVideo = { workId: null, startedAt: null, runningAt: null, doneAt: null, result: null };

while (seriesDoneAt === null || (bVideo.startedAt !== null && bVideo.doneAt === null)) {
  const now = Date.now();
  if (now - t0 > DEADLINE_MS) throw new Error(`not finished after ${seconds(DEADLINE_MS)}`);
  if (seriesDoneAt === null) {
    const series = await a.call('GET', `/api/series/detail?seriesId=${draft.seriesId}`);
    let running = 0;
    let active = 0;
    for (const episode of series.episodes) {
      const times = seen.get(episode.index);
      if (episode.state === 'queued') times.queuedAt ??= now;
      if (episode.state === 'running') times.runningAt ??= now;
      if (['succeeded', 'failed', 'cancelled'].includes(episode.state)) {
        times.endedAt ??= now;
        times.state = episode.state;
        times.error = episode.error;
        times.durationMs = episode.durationMs;
      }
      if (episode.state === 'running') running += 1;
      if (episode.state === 'queued' || episode.state === 'running') active += 1;
    }
    mostRunning = Math.max(mostRunning, running);
    mostActive = Math.max(mostActive, active);
    if (series.succeeded > 0) firstDoneAt ??= now;
    if (['finished', 'cancelled'].includes(series.state)) {
      seriesDoneAt = now;
      finalSeries = series;
    }
    // In the middle of the series: B, another user, starts one video of its own.
    if (bVideo.startedAt === null && series.succeeded >= bAfter && seriesDoneAt === null) {
      const { workId } = await b.call('POST', '/api/video/save_text', {
        type: 0,
        title: '月台',
        text: B_TEXT,
      });
      bVideo.workId = workId;
      bVideo.startedAt = Date.now();
      await b.call('POST', '/api/video/gen_video', { workId });
    }
  }
  if (bVideo.startedAt !== null && bVideo.doneAt === null) {
    const result = await b.call('GET', `/api/video/get_work_result?workId=${bVideo.workId}`);
    if (result.state === 'running') bVideo.runningAt ??= Date.now();
    if (['succeeded', 'failed', 'cancelled'].includes(result.state)) {
      bVideo.doneAt = Date.now();
      bVideo.result = result;
    }
  }
  await sleep(POLL_MS);
}

// --- Figures ----------------------------------------------------------------------------------

// Render time: first seen running to first seen ended (within a poll at each end).
const renderMsOf = (times) =>
  times.runningAt && times.endedAt ? times.endedAt - times.runningAt : null;
const timesInOrder = plan.episodes.map((planned) => seen.get(planned.index));
const rows = plan.episodes.map((planned, i) => {
  const times = timesInOrder[i];
  const renderMs = renderMsOf(times);
  return {
    episode: planned.index,
    chapter: planned.sourceTitle,
    chars: planned.chars,
    state: times.state,
    'planned length': seconds(planned.estimatedSeconds * 1000),
    'video length': times.durationMs ? seconds(times.durationMs) : '',
    // When it was first seen running, from the start call: the series' own pace.
    'running from': times.runningAt ? seconds(times.runningAt - t0) : '',
    'render (running → done)': renderMs === null ? '' : seconds(renderMs),
    ...(times.error ? { error: times.error } : {}),
  };
});
const renders = timesInOrder.map(renderMsOf).filter((ms) => ms !== null);
// The pause between one episode's end and the next one's start, as the poll saw it.
const gaps = [];
for (let i = 1; i < timesInOrder.length; i += 1) {
  const before = timesInOrder[i - 1].endedAt;
  const next = timesInOrder[i].runningAt ?? timesInOrder[i].queuedAt;
  if (before && next) gaps.push(Math.max(0, next - before));
}
const succeeded = finalSeries.episodes.filter((e) => e.state === 'succeeded');
const videoMs = succeeded.reduce((sum, e) => sum + e.durationMs, 0);
const totalMs = seriesDoneAt - t0;
const plannedVideoMs = plan.episodes.reduce((sum, e) => sum + e.estimatedSeconds * 1000, 0);

console.log(
  `series of ${chapters} comic episodes on the embedded defaults (${base}); ` +
    `machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
);
console.log(
  `book: ${book.title}, ${book.chapterCount} chapters of ${Math.min(...plan.episodes.map((e) => e.chars))}–` +
    `${Math.max(...plan.episodes.map((e) => e.chars))} characters; cast read in ${seconds(createMs)} ` +
    `(create) by ${draft.castEngine}: ${cast.map((role) => role.name).join('、') || 'nobody'}`,
);
console.table(rows);
console.table({
  'episodes succeeded / failed': `${finalSeries.succeeded} / ${finalSeries.failed} (series ${finalSeries.state})`,
  'episodes per hour': ((finalSeries.episodes.length * 3_600_000) / totalMs).toFixed(1),
  'start → first episode done': firstDoneAt ? seconds(firstDoneAt - t0) : 'none',
  'start → series finished': seconds(totalMs),
  'the plan estimated (making time / video length)': `${seconds(plan.estimatedSeconds * 1000)} / ${seconds(plannedVideoMs)}`,
  'video made': `${seconds(videoMs)} (${(totalMs / Math.max(videoMs, 1)).toFixed(2)} s of making per second of video)`,
  'episode render, mean / max': renders.length
    ? `${seconds(mean(renders))} / ${seconds(Math.max(...renders))}`
    : 'none',
  // 0 means the poll that saw an episode end already saw the next one running.
  'one episode’s end → next one running, mean / max': gaps.length
    ? `${seconds(mean(gaps))} / ${seconds(Math.max(...gaps))}${Math.max(...gaps) === 0 ? ' (always the same poll)' : ''}`
    : 'none',
  'A episodes seen running at once (most)': `${mostRunning}${mostRunning > 1 ? '  <- more than one!' : ''}`,
  'A episodes seen queued or running at once (most)': mostActive,
  [`B's video (started after ${bAfter} episodes)`]: bVideo.result
    ? `${bVideo.result.state}, ${seconds(bVideo.result.durationMs)} long`
    : 'not started',
  "B's wait: gen_video → done": bVideo.doneAt ? seconds(bVideo.doneAt - bVideo.startedAt) : '',
  "B's wait: gen_video → running": bVideo.runningAt
    ? seconds(bVideo.runningAt - bVideo.startedAt)
    : '',
  "B's render (running → done), for reference":
    bVideo.runningAt && bVideo.doneAt ? seconds(bVideo.doneAt - bVideo.runningAt) : '',
});
console.log(
  `times as seen by a ${POLL_MS / 1000} s poll of /api/series/detail and get_work_result`,
);
process.exit(0);
