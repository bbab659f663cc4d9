import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { listSeries } from '@kol/shared-sdk';

interface SeriesFilterProps {
  /** The types this list shows: only their series are offered. */
  types: readonly number[];
  value: number | null;
  onChange: (seriesId: number | null) => void;
}

/** 系列: the works list narrowed to one series' episodes (made on the video remote's 整季生成). */
export function SeriesFilter({ types, value, onChange }: SeriesFilterProps) {
  const query = useQuery({
    queryKey: ['series', 'list'],
    queryFn: ({ signal }) => listSeries(undefined, { signal }),
  });
  const series = (query.data ?? []).filter((item) => types.includes(item.type));
  // No series of these types: nothing to filter by (a link with one still shows it chosen).
  if (series.length === 0 && value === null) return null;
  return (
    <Select
      aria-label="按系列筛选"
      style={{ minWidth: 180 }}
      value={value ?? 0}
      onChange={(next: number) => onChange(next === 0 ? null : next)}
      options={[
        { value: 0, label: '全部作品' },
        ...series.map((item) => ({ value: item.seriesId, label: `系列：${item.title}` })),
        ...(value !== null && !series.some((item) => item.seriesId === value)
          ? [{ value, label: `系列 #${value}` }]
          : []),
      ]}
    />
  );
}
