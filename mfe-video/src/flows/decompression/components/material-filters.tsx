import { Radio } from 'antd';
import type { MaterialCategory, MaterialTag } from '@kol/shared-sdk';

const ALL = 'all';

interface MaterialFiltersProps {
  /** The material library's categories (背景's second level); none shown when there are none. */
  categories: MaterialCategory[];
  tags: MaterialTag[];
  categoryId: number | null;
  tagId: number | null;
  onCategoryChange: (categoryId: number | null) => void;
  onTagChange: (tagId: number | null) => void;
}

/** The library's filters: 画面类别 (when it has categories) and 素材分类, each with 全部. */
export function MaterialFilters({
  categories,
  tags,
  categoryId,
  tagId,
  onCategoryChange,
  onTagChange,
}: MaterialFiltersProps) {
  return (
    <>
      {categories.length > 0 && (
        <Radio.Group
          aria-label="画面类别"
          optionType="button"
          size="small"
          value={categoryId === null ? ALL : categoryId}
          onChange={(event) =>
            onCategoryChange(event.target.value === ALL ? null : Number(event.target.value))
          }
          options={[
            { value: ALL, label: '全部类别' },
            ...categories.map((category) => ({ value: category.id, label: category.name })),
          ]}
        />
      )}
      <Radio.Group
        aria-label="素材分类"
        optionType="button"
        size="small"
        value={tagId === null ? ALL : tagId}
        onChange={(event) =>
          onTagChange(event.target.value === ALL ? null : Number(event.target.value))
        }
        options={[
          { value: ALL, label: '全部' },
          ...tags.map((tag) => ({ value: tag.tagId, label: tag.name })),
        ]}
      />
    </>
  );
}
