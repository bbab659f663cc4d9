import { describe, expect, it } from '@jest/globals';
import { firstLevel, MATERIAL_TREES, secondLevel } from '../../../src/video/library/categories';
import {
  findMarketTemplate,
  MARKET_TEMPLATES,
  templateList,
} from '../../../src/video/library/templates';
import { findFlaggedTerms } from '../../../src/video/library/vocabulary';

describe('marketing templates', () => {
  it('have distinct ids, a required name field, and the contract shape', () => {
    expect(new Set(MARKET_TEMPLATES.map((t) => t.id)).size).toBe(MARKET_TEMPLATES.length);
    for (const template of MARKET_TEMPLATES) {
      const nameField = template.fields.find((f) => f.key === template.nameField);
      expect(nameField?.required).toBe(true);
      expect(template.fields.some((f) => f.key === 'callToAction' && !f.required)).toBe(true);
    }
    expect(templateList()[0]).toEqual({
      id: 1,
      name: '好物种草',
      description: expect.any(String),
      coverUrl: '',
      fields: expect.arrayContaining([{ key: 'product', label: '产品名称', required: true }]),
    });
    expect(findMarketTemplate(999)).toBeNull();
  });

  it('write a narration from the filled fields, one sentence per selling point', () => {
    const template = findMarketTemplate(1);
    const script = template?.script({
      product: '竹纤维毛巾',
      sellingPoints: '吸水快；不掉毛，柔软亲肤',
      offer: '第二条半价',
      callToAction: '点击下方了解',
    });
    expect(script).toEqual([
      '今天给大家分享一个好东西。',
      '这就是竹纤维毛巾。',
      '首先，吸水快。',
      '另外，不掉毛。',
      '还有，柔软亲肤。',
      '现在第二条半价。',
      '点击下方了解！',
    ]);
  });

  it('leave out the sentences of empty optional fields and never write a flagged word', () => {
    for (const template of MARKET_TEMPLATES) {
      const required = Object.fromEntries(
        template.fields.filter((f) => f.required).map((f) => [f.key, `${f.label}内容`]),
      );
      const script = template.script(required);
      expect(script.length).toBeGreaterThanOrEqual(3);
      expect(script.every((s) => s.trim() !== '' && !s.includes('undefined'))).toBe(true);
      expect(findFlaggedTerms(script.join(''))).toEqual([]);
      const all = Object.fromEntries(template.fields.map((f) => [f.key, `${f.label}内容`]));
      expect(template.script(all).length).toBeGreaterThan(script.length);
    }
  });
});

describe('material categories', () => {
  it('answer the first level of each tree and the children of each node, ids unique overall', () => {
    const ids = new Set<number>();
    for (const type of Object.keys(MATERIAL_TREES).map(Number)) {
      const first = firstLevel(type) ?? [];
      expect(first.length).toBeGreaterThan(0);
      for (const node of first) {
        expect(node.parentId).toBeNull();
        ids.add(node.id);
        const children = secondLevel(node.id) ?? [];
        expect(children.length).toBeGreaterThan(0);
        for (const child of children) {
          expect(child.parentId).toBe(node.id);
          ids.add(child.id);
        }
      }
    }
    const count = Object.values(MATERIAL_TREES).reduce(
      (sum, tree) =>
        sum + tree.nodes.length + tree.nodes.reduce((n, node) => n + node.children.length, 0),
      0,
    );
    expect(ids.size).toBe(count);
    expect(firstLevel(0)?.map((n) => n.name)).toEqual(
      expect.arrayContaining(['背景', '音乐', '音效', '贴纸']),
    );
    expect(firstLevel(99)).toBeNull();
    expect(secondLevel(100101)).toBeNull();
  });
});
