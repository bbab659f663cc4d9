import { useState } from 'react';
import { Input } from 'antd';

interface WorksSearchProps {
  /** The keyword the list is filtered by (from the address). */
  keyword: string;
  onSearch: (keyword: string) => void;
}

/** Search by title: the box holds what is typed; the list follows only on 搜索 or Enter. */
export function WorksSearch({ keyword, onSearch }: WorksSearchProps) {
  const [draft, setDraft] = useState(keyword);
  const [shown, setShown] = useState(keyword);
  // The keyword changed from outside (清除搜索, back button): the box shows it.
  if (shown !== keyword) {
    setShown(keyword);
    setDraft(keyword);
  }
  return (
    <Input.Search
      aria-label="搜索作品"
      placeholder="按标题搜索"
      allowClear
      enterButton="搜索"
      maxLength={50}
      style={{ maxWidth: 320 }}
      value={draft}
      onChange={(event) => {
        setDraft(event.target.value);
        // Clearing the box lists everything again.
        if (event.target.value === '' && keyword) onSearch('');
      }}
      onSearch={(value) => onSearch(value.trim())}
    />
  );
}
