import type { Assistant } from '@kol/shared-sdk/contracts';

/**
 * assistant_list (configType 0): the ready-made writing and video helpers the pages offer. Each
 * is a starting point the page fills into the text box; the writing engine does the work.
 */
export const ASSISTANTS: readonly Assistant[] = [
  { id: 1, name: '小说推文', description: '把小说章节改写成适合短视频朗读的推文，保留悬念与节奏' },
  { id: 2, name: '爆款开头', description: '为文案写三个不同风格的开头，前三秒抓住观众' },
  { id: 3, name: '漫画分镜', description: '把文案拆成分镜：每镜一句旁白和一段画面描述' },
  { id: 4, name: '情感故事', description: '第一人称讲述一个有反转的情感故事，适合解压视频' },
  { id: 5, name: '知识科普', description: '把一个知识点讲得通俗易懂，配合例子与总结' },
  { id: 6, name: '悬疑解说', description: '以解说口吻讲述悬疑情节，层层铺垫，结尾留钩子' },
  { id: 7, name: '古风旁白', description: '用古风雅致的语言改写文案，适合国风画面' },
  { id: 8, name: '带货口播', description: '写一段产品口播：痛点、卖点、优惠与行动号召' },
  { id: 9, name: '出海英文', description: '把中文文案改写为地道的英文短视频旁白，用于海外作品' },
  { id: 10, name: '标题生成', description: '为视频起五个吸引点击但不夸大的标题' },
];
