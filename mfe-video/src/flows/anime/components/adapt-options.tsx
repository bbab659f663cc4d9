import { Card, Flex, Radio, Typography } from 'antd';
import { ANIME_GENRES, ANIME_LENGTHS, type AnimeLength } from '@kol/shared-sdk';

/** Any genre: the adaptation follows the story. */
export const ANY_GENRE = '不限';

interface AdaptOptionsProps {
  genre: string;
  onGenreChange: (genre: string) => void;
  length: AnimeLength;
  onLengthChange: (length: AnimeLength) => void;
}

/** 题材 and 时长 of the adaptation (the chat model follows them; the local rules cannot). */
export function AdaptOptions({ genre, onGenreChange, length, onLengthChange }: AdaptOptionsProps) {
  return (
    <Card title="改编要求" size="small">
      <Flex vertical gap={12}>
        <Flex vertical gap={4}>
          <Typography.Text>题材</Typography.Text>
          <Radio.Group
            aria-label="题材"
            optionType="button"
            value={genre}
            onChange={(event) => onGenreChange(String(event.target.value))}
            options={[ANY_GENRE, ...ANIME_GENRES].map((value) => ({ value, label: value }))}
          />
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text>时长</Typography.Text>
          <Radio.Group
            aria-label="时长"
            optionType="button"
            value={length}
            onChange={(event) => onLengthChange(event.target.value as AnimeLength)}
            options={(Object.keys(ANIME_LENGTHS) as AnimeLength[]).map((value) => ({
              value,
              label: ANIME_LENGTHS[value].label,
            }))}
          />
        </Flex>
        <Typography.Text type="secondary">
          配置了文本模型时由模型按题材与时长改编；离线时按本地规则改编：引号里的话归给说话的角色，其余为旁白，不改变原文长度。
        </Typography.Text>
      </Flex>
    </Card>
  );
}
