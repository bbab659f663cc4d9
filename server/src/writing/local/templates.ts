/**
 * Wording of the local engine, per tone. The engine never invents plot: these phrases frame
 * sentences taken from the source (hooks, transitions, questions, closing lines).
 */
export type ToneProfile = 'suspense' | 'passion' | 'warm' | 'humor' | 'neutral';

export function toneProfile(tone: string | undefined, genre?: string): ToneProfile {
  const text = `${tone ?? ''} ${genre ?? ''}`;
  if (/悬疑|紧张|惊悚|烧脑|推理|恐怖|诡异|神秘/.test(text)) return 'suspense';
  if (/热血|燃|爽|激昂|逆袭|玄幻|仙侠|武侠|战斗|高能/.test(text)) return 'passion';
  if (/温情|治愈|甜|温暖|感人|虐|言情|浪漫|细腻/.test(text)) return 'warm';
  if (/搞笑|幽默|轻松|沙雕|诙谐|吐槽/.test(text)) return 'humor';
  return 'neutral';
}

interface Wording {
  /** Opening lines of promo copy; {book} is the book title, {name} the lead. */
  promoHooks: string[];
  /** Lines that lead into the excerpt. */
  leadIns: string[];
  /** Cliffhanger questions; {name} the lead, {kw} a keyword. */
  questions: string[];
  /** Call to read on. */
  closers: string[];
  /** First line of a narration script. */
  narrationOpeners: string[];
  /** Connectives between narration beats. */
  narrationLinks: string[];
  narrationClosers: string[];
  /** First words of short spoken copy. */
  spokenOpeners: string[];
  spokenClosers: string[];
}

const WORDING: Record<ToneProfile, Wording> = {
  suspense: {
    promoHooks: [
      '所有人都以为这只是一个普通的开始，直到{name}发现了那个秘密。',
      '{name}不知道，从这一刻起，一切都已经回不去了。',
    ],
    leadIns: ['故事是这样开始的：', '先看这一段：'],
    questions: [
      '{name}看到的真相，究竟是什么？',
      '{kw}的背后，到底藏着谁？',
      '这一切，真的只是巧合吗？',
    ],
    closers: ['答案就藏在《{book}》里，敢不敢点开看？', '想知道真相，去读《{book}》。'],
    narrationOpeners: ['今天讲一个细思极恐的故事。', '这个故事，越往后越不对劲。'],
    narrationLinks: ['可是，', '就在这时，', '奇怪的是，', '更没想到的是，'],
    narrationClosers: ['真相到底是什么？我们下期接着说。', '后面的事，更让人后背发凉。'],
    spokenOpeners: ['家人们，这本书我看得后背发凉。', '别划走，这个开头太吓人了。'],
    spokenClosers: ['你猜到真相了吗？评论区告诉我。', '书名《{book}》，胆子大的去看。'],
  },
  passion: {
    promoHooks: [
      '被所有人看不起的{name}，这一次不打算再忍了！',
      '从谷底到巅峰，{name}的逆袭，从这一章开始！',
    ],
    leadIns: ['名场面来了：', '看这一段，燃不燃：'],
    questions: ['{name}能不能翻盘？', '面对{kw}，{name}会怎么反击？', '谁才是最后笑着的那个人？'],
    closers: ['越往后越燃，《{book}》不看后悔！', '热血逆袭，尽在《{book}》。'],
    narrationOpeners: ['今天这个故事，主打一个逆袭。', '开局就是绝境，但主角没认输。'],
    narrationLinks: ['没想到，', '就在这时，', '下一秒，', '紧接着，'],
    narrationClosers: ['他能不能逆天改命？下期见分晓。', '真正的好戏，才刚刚开始。'],
    spokenOpeners: ['兄弟们，这本书开局就炸了！', '这个主角，我真的太爱了！'],
    spokenClosers: ['后面更燃，书名《{book}》，冲！', '你觉得他能翻盘吗？评论区见。'],
  },
  warm: {
    promoHooks: ['有些相遇，是命运早就写好的伏笔。', '{name}以为自己早已习惯了孤单，直到那一天。'],
    leadIns: ['书里有这样一段：', '看到这里，心一下子软了：'],
    questions: [
      '{name}最后会得到想要的结局吗？',
      '那份心意，能不能被好好接住？',
      '错过的，还能再找回来吗？',
    ],
    closers: ['温柔的故事，值得慢慢读，《{book}》。', '愿你也能在《{book}》里找到一点温暖。'],
    narrationOpeners: ['今天想给你讲一个温柔的故事。', '这个故事，很适合睡前听。'],
    narrationLinks: ['后来，', '那一刻，', '慢慢地，', '可是，'],
    narrationClosers: ['故事还没有结束，我们下次再讲。', '愿每一份心意，都不被辜负。'],
    spokenOpeners: ['这本书，我看哭了。', '姐妹们，这个故事太戳我了。'],
    spokenClosers: ['书名《{book}》，记得带纸巾。', '你也有过这样的时刻吗？'],
  },
  humor: {
    promoHooks: [
      '别人穿越当大佬，{name}一睁眼：这剧本不对啊？',
      '{name}：我只是想安静地过日子，怎么就这么难。',
    ],
    leadIns: ['名场面预警：', '先笑为敬：'],
    questions: ['{name}这次还能蒙混过关吗？', '{kw}这事儿，到底怎么收场？', '你以为这就完了？'],
    closers: ['笑到停不下来，《{book}》安排上。', '下饭神作《{book}》，谁看谁知道。'],
    narrationOpeners: ['今天讲个有点离谱的故事。', '这个故事，开头我就笑了。'],
    narrationLinks: ['结果，', '谁知道，', '更离谱的是，', '然后，'],
    narrationClosers: ['后面还有更离谱的，下期见。', '你说这事儿，找谁说理去？'],
    spokenOpeners: ['救命，这本书太好笑了。', '家人们谁懂啊，这主角也太惨了。'],
    spokenClosers: ['书名《{book}》，快去笑。', '你觉得他还能更倒霉吗？'],
  },
  neutral: {
    promoHooks: [
      '{name}的命运，从这一章开始改变。',
      '一个看似平常的日子，{name}遇上了改变一生的事。',
    ],
    leadIns: ['故事是这样的：', '书里写道：'],
    questions: ['{name}接下来会怎么做？', '{kw}会把故事带向哪里？', '等待{name}的，会是什么？'],
    closers: ['想看后续，就去读《{book}》。', '完整故事，尽在《{book}》。'],
    narrationOpeners: ['今天讲一个故事。', '我们来看这样一个故事。'],
    narrationLinks: ['接着，', '这时，', '随后，', '不久，'],
    narrationClosers: ['故事后面怎样，我们下期再讲。', '想知道结局，记得关注。'],
    spokenOpeners: ['最近看到一本书，想推荐给你。', '今天聊一本小说。'],
    spokenClosers: ['书名《{book}》，感兴趣可以去看看。', '你怎么看？评论区聊聊。'],
  },
};

export function wording(profile: ToneProfile): Wording {
  return WORDING[profile];
}

/** Deterministic pick, so the same input gives the same text and a regenerate may vary by seed. */
export function pick<T>(items: readonly T[], seed: number): T {
  const item = items[Math.abs(seed) % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** Title patterns for the titles mode; {a} and {b} are keywords, {name} the lead. */
export const TITLE_PATTERNS: Record<ToneProfile, string[]> = {
  suspense: ['{a}之谜', '消失的{a}', '{a}背后的人', '第七封{a}', '{name}与{a}的秘密', '午夜{a}'],
  passion: ['{a}至尊', '我在{a}逆天改命', '{name}：{a}之王', '一剑{a}', '从{a}开始无敌', '{a}战神'],
  warm: ['{a}与{b}', '等风也等{a}', '{name}的{a}时光', '遇见{a}', '{a}里的温柔', '写给{a}的信'],
  humor: [
    '我的{a}不太对劲',
    '{name}今天也在{a}',
    '关于我成为{a}这件事',
    '{a}？不存在的',
    '离谱的{a}日常',
  ],
  neutral: ['{a}', '{a}与{b}', '{name}的{a}', '{a}之后', '重返{a}', '{a}纪事'],
};

/** Small synonym table for the rewrite mode: common narrative words and a plainer alternative. */
export const SYNONYMS: Array<[string, string]> = [
  ['忽然', '突然'],
  ['突然', '猛地'],
  ['看着', '望着'],
  ['非常', '十分'],
  ['但是', '可是'],
  ['于是', '就这样'],
  ['立刻', '马上'],
  ['仿佛', '好像'],
  ['低声说', '压低声音说'],
  ['笑着说', '笑道'],
  ['终于', '总算'],
  ['已经', '早已'],
  ['似乎', '像是'],
  ['开始', '着手'],
  ['知道', '明白'],
  ['很快', '不一会儿'],
  ['发现', '察觉'],
  ['一直', '始终'],
];
