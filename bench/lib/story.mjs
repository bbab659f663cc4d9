// The text the video benchmarks render: thirteen sentences of a web-novel opening, about 50
// seconds spoken by the offline voice (a 61.9 s comic video with its pauses and end card).
export const STORY = [
  '苏晚推开邮局的木门，柜台上已经放着一封信。',
  '收件人写着她的名字，落款是二十年后的自己。',
  '她愣在原地，手指微微发抖。',
  '信里只有一句话：千万不要嫁给顾沉舟。',
  '三天后，就是她和顾沉舟的婚礼。',
  '窗外下起了雨，雨水顺着屋檐滴落。',
  '她想起第一次见到他的那个夏天，蝉鸣声一阵高过一阵。',
  '那时的他站在梧桐树下，笑着叫她的名字。',
  '“你在看什么？”身后忽然传来熟悉的声音。',
  '苏晚猛地转身，顾沉舟正撑着伞站在门口。',
  '他的目光落在那封信上，脸色一点点沉了下去。',
  '“这封信，是谁给你的？”',
  '雨越下越大，整座小城都安静了下来。',
].join('');
