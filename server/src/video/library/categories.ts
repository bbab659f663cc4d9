import type { MaterialCategory } from '@kol/shared-sdk/contracts';

/**
 * Material categories (get_first_level_list / get_second_level_list): built-in two-level trees,
 * one per `type`. Ids are derived, so one id names one node across every tree:
 *   first level  = (type + 1) * 1000 + n        (type 0: 1001, 1002…; type 1: 2001…)
 *   second level = parent id * 100 + m          (1001 → 100101, 100102…)
 */
interface TreeNode {
  name: string;
  children: string[];
}

export const MATERIAL_TREES: Readonly<Record<number, { name: string; nodes: TreeNode[] }>> = {
  0: {
    name: '视频素材',
    nodes: [
      { name: '背景', children: ['抽象流动', '星空粒子', '自然风光', '城市夜景', '纯色渐变'] },
      { name: '音乐', children: ['舒缓', '悬疑', '温暖', '紧张', '古风', '欢快'] },
      { name: '音效', children: ['转场', '环境', '提示音', '笑声掌声', '悬疑氛围'] },
      { name: '贴纸', children: ['表情', '箭头标注', '边框', '节日'] },
      { name: '转场', children: ['淡入淡出', '推拉', '闪白', '模糊'] },
    ],
  },
  1: {
    name: '图片素材',
    nodes: [
      { name: '人物', children: ['男性角色', '女性角色', '儿童', '老人'] },
      { name: '场景', children: ['室内', '室外', '古代', '未来'] },
      { name: '道具', children: ['武器', '交通工具', '日常用品'] },
      { name: '画风参考', children: ['动漫', '水墨', '写实', '水彩'] },
    ],
  },
  2: {
    name: '文字素材',
    nodes: [
      { name: '字幕样式', children: ['综艺', '电影', '手写', '描边'] },
      { name: '花字', children: ['标题', '强调', '对话气泡'] },
    ],
  },
};

const firstLevelId = (type: number, index: number) => (type + 1) * 1000 + index + 1;
const secondLevelId = (parentId: number, index: number) => parentId * 100 + index + 1;

/** The first level of a tree, or null for a type that has none. */
export function firstLevel(type: number): MaterialCategory[] | null {
  const tree = MATERIAL_TREES[type];
  if (!tree) return null;
  return tree.nodes.map((node, i) => ({
    id: firstLevelId(type, i),
    name: node.name,
    parentId: null,
  }));
}

/**
 * The names a category stands for when listing materials: a second-level category its own
 * name, a first-level one the names of all its children; null when no category has that id.
 */
export function categoryNames(id: number): string[] | null {
  for (const [key, tree] of Object.entries(MATERIAL_TREES)) {
    for (const [i, node] of tree.nodes.entries()) {
      const parentId = firstLevelId(Number(key), i);
      if (parentId === id) return [...node.children];
      const child = node.children.find((_, m) => secondLevelId(parentId, m) === id);
      if (child !== undefined) return [child];
    }
  }
  return null;
}

/** The children of a first-level category, or null when no category has that id. */
export function secondLevel(parentId: number): MaterialCategory[] | null {
  for (const [key, tree] of Object.entries(MATERIAL_TREES)) {
    const type = Number(key);
    const index = tree.nodes.findIndex((_, i) => firstLevelId(type, i) === parentId);
    const node = tree.nodes[index];
    if (node)
      return node.children.map((name, i) => ({ id: secondLevelId(parentId, i), name, parentId }));
  }
  return null;
}
