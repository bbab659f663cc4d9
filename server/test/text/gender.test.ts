import { describe, expect, it } from '@jest/globals';
import { describedGender, inferGender, type Gender } from '../../src/text/gender';

/**
 * Short passages written for the project, each with the person asked about, the other people
 * of the passage and the gender a reader gives that person (null: the text does not say).
 */
const CASES: Array<{
  text: string;
  name: string;
  others?: string[];
  aliases?: string[];
  want: Gender | null;
  why: string;
}> = [
  {
    why: 'the scholar of the bug report',
    text: '沈言是个落第书生，背着书箱走进破庙。他点起一盏油灯，翻开了书。',
    name: '沈言',
    want: 'male',
  },
  {
    why: 'the girl of the bug report',
    text: '阿瑶提着竹篮推门进来，她把热粥放在桌上，轻声说：“趁热喝吧。”',
    name: '阿瑶',
    want: 'female',
  },
  {
    why: 'a woman described by a sentence naming a man too',
    text: '阿瑶把药碗递给沈言，她的手一直在发抖。沈言接过药碗，一饮而尽。',
    name: '阿瑶',
    others: ['沈言'],
    want: 'female',
  },
  {
    why: 'the man of that sentence does not take her pronoun (his given name leans male)',
    text: '阿瑶把药碗递给沈言，她的手一直在发抖。沈言接过药碗，一饮而尽。',
    name: '沈言',
    others: ['阿瑶'],
    want: 'male',
  },
  {
    why: 'a woman related to a man by a kinship noun',
    text: '苏晚是沈言的表妹，自幼寄住在沈家。',
    name: '苏晚',
    others: ['沈言'],
    want: 'female',
  },
  {
    why: 'the man named in her kinship sentence is not her gender (his given name leans male)',
    text: '苏晚是沈言的表妹，自幼寄住在沈家。沈言每日去书院，很晚才回。',
    name: '沈言',
    others: ['苏晚'],
    want: 'male',
  },
  {
    why: 'a noun in apposition before the name',
    text: '少女林小满蹲在河边洗衣，远处传来钟声。',
    name: '林小满',
    want: 'female',
  },
  {
    why: 'a male noun in apposition before the name',
    text: '书生顾川在雨里赶路，鞋子早已湿透。',
    name: '顾川',
    want: 'male',
  },
  {
    why: 'introduced by 名叫…的姑娘',
    text: '村口住着一个名叫秋禾的姑娘，每天天不亮就上山采茶。',
    name: '秋禾',
    want: 'female',
  },
  {
    why: 'introduced by 少年，名叫',
    text: '镇上有个少年，名叫陆远，整日在铁匠铺里帮工。',
    name: '陆远',
    want: 'male',
  },
  {
    why: 'apposition after a comma',
    text: '温言，一个十七岁的少女，独自守着山脚的药铺。',
    name: '温言',
    want: 'female',
  },
  {
    why: 'address 姑娘 in speech',
    text: '掌柜迎上来：“宁溪姑娘，您要的丝线到了。”宁溪点点头，付了银子。',
    name: '宁溪',
    want: 'female',
  },
  {
    why: 'address 兄 in speech',
    text: '“周衡兄，多年不见！”来人拱手行礼。周衡愣了片刻，才认出对方。',
    name: '周衡',
    want: 'male',
  },
  {
    why: 'the surname alone with 公子',
    text: '卖花的小姑娘拦住谢昀：“谢公子，买一枝吧。”谢昀笑着摇头。',
    name: '谢昀',
    want: 'male',
  },
  {
    why: 'the surname alone with 小姐',
    text: '丫鬟急急跑来：“唐小姐，老爷叫您去前厅。”唐棠放下绣绷，起身整了整衣襟。',
    name: '唐棠',
    want: 'female',
  },
  {
    why: '师兄 as address',
    text: '“青崖师兄，师父叫你过去。”小道童在门外喊。青崖收起长剑，快步走向后殿。',
    name: '青崖',
    want: 'male',
  },
  {
    why: '师姐 as apposition',
    text: '师姐白芷站在山门前，衣袂被风吹起。',
    name: '白芷',
    want: 'female',
  },
  {
    why: 'a mother',
    text: '陈月娥是三个孩子的母亲，每天在街口摆摊卖豆腐。',
    name: '陈月娥',
    want: 'female',
  },
  {
    why: 'a father',
    text: '老周是这个家的父亲，话不多，只会埋头干活。',
    name: '老周',
    want: 'male',
  },
  {
    why: 'the pronoun opening the next sentence',
    text: '许念站在站台上。她把围巾又裹紧了一些，望着远处的铁轨。',
    name: '许念',
    want: 'female',
  },
  {
    why: 'the pronoun after a quotation',
    text: '韩冬冷笑道：“你以为我会怕？”他转身走进了夜色。',
    name: '韩冬',
    want: 'male',
  },
  {
    why: 'a pronoun inside the quotation is about someone else',
    text: '林初说：“他今天不会来了。”林初关上窗，坐回灯下。',
    name: '林初',
    want: null,
  },
  {
    why: 'a lead-in word before the subject',
    text: '这时，江屿推门而入，他的肩头落满了雪。',
    name: '江屿',
    want: 'male',
  },
  {
    why: 'someone else named between the name and the pronoun (her given name leans female)',
    text: '程砚看着苏禾，他没有说话。',
    name: '苏禾',
    others: ['程砚'],
    want: 'female',
  },
  {
    why: 'the subject keeps the pronoun when the other is named before the name',
    text: '程砚刚走，苏禾便哭了，她哭了很久。',
    name: '苏禾',
    others: ['程砚'],
    want: 'female',
  },
  {
    why: 'marrying',
    text: '那年秋天，罗成娶了邻村的姑娘，办了三天的酒席。',
    name: '罗成',
    want: 'male',
  },
  {
    why: 'being married off',
    text: '十六岁那年，杏儿嫁给了镇上的米商。',
    name: '杏儿',
    want: 'female',
  },
  {
    why: 'clothes',
    text: '月光下，孟筝穿着一袭素色长裙，慢慢走过回廊。',
    name: '孟筝',
    want: 'female',
  },
  {
    why: 'the given name only, when nothing else says',
    text: '婉清在院子里晒药材，一株一株地翻过来。',
    name: '婉清',
    want: null,
  },
  {
    why: 'a given-name character as the weak prior',
    text: '慕容晴在院子里晒药材，一株一株地翻过来。',
    name: '慕容晴',
    want: 'female',
  },
  {
    why: 'a male given-name character as the weak prior',
    text: '赵铁龙一拳砸在桌上，茶碗跳了起来。',
    name: '赵铁龙',
    want: 'male',
  },
  {
    why: 'what the text says outweighs the name prior',
    text: '书生李雪峰合上书卷，他已经三天没有出门了。',
    name: '李雪峰',
    want: 'male',
  },
  {
    why: 'apposition outweighs the prior of a female-sounding name',
    text: '少年柳儿背着弓箭走进林子。',
    name: '柳儿',
    want: 'male',
  },
  {
    why: 'a described woman among two men',
    text: '侍女青萝端着茶进来，魏珩和裴照同时住了口。青萝低着头，放下茶便退了出去。',
    name: '青萝',
    others: ['魏珩', '裴照'],
    want: 'female',
  },
  {
    why: 'nothing says: the given name leans male (默)',
    text: '林默站在窗前，看着楼下的车流。',
    name: '林默',
    want: 'male',
  },
  {
    why: 'an alias carries the cue',
    text: '宋知意回到府中。“小意姑娘回来了！”门房喊道。',
    name: '宋知意',
    aliases: ['小意'],
    want: 'female',
  },
  {
    why: 'a prince',
    text: '三皇子萧景站在殿外，王爷萧景的名号早已传遍京城。',
    name: '萧景',
    want: 'male',
  },
  {
    why: 'a princess addressed',
    text: '“明月公主，陛下请您过去。”明月放下手中的书。',
    name: '明月',
    want: 'female',
  },
  {
    why: 'several pronoun votes agreeing',
    text: '顾北推开门。他环顾四周，屋里空无一人。顾北叹了口气，他知道自己来晚了。',
    name: '顾北',
    want: 'male',
  },
  {
    why: '其他 and 他们 are not his pronoun',
    text: '叶青看着其他人离开，她们都没有回头。',
    name: '叶青',
    want: null,
  },
  {
    why: 'a mother of someone else says nothing of that someone (his given name leans male)',
    text: '沈言的母亲病了很久。沈言每日熬药，守在床边。',
    name: '沈言',
    want: 'male',
  },
  {
    why: 'the mother named after her son',
    text: '沈言的母亲柳氏病了很久，柳氏总说不碍事。',
    name: '柳氏',
    others: ['沈言'],
    want: 'female',
  },
];

describe('inferGender', () => {
  it.each(CASES)('$name: $why', ({ text, name, aliases, others, want }) => {
    expect(inferGender(text, name, aliases ?? [], others ?? [])).toBe(want);
  });

  it('has at least thirty passages', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it('answers null for an empty name or text', () => {
    expect(inferGender('', '沈言')).toBeNull();
    expect(inferGender('沈言是个书生。', '  ')).toBeNull();
  });
});

describe('describedGender', () => {
  it.each([
    ['女，十八岁，黑色长发，浅青襦裙', 'female'],
    ['男，二十岁左右，青衫书生，清瘦', 'male'],
    ['十六岁的少女，扎着两条辫子', 'female'],
    ['一位中年男性，络腮胡', 'male'],
    ['黑发，青色布衣，背着竹篓', null],
  ] as const)('%s → %s', (description, want) => {
    expect(describedGender(description)).toBe(want);
  });
});
