import { useState, type ReactNode } from 'react';
import { Card, Flex, Input, Tag, Typography } from 'antd';
import { MAX_SPEAKER_CHARS } from '../opera-flow';

interface CharacterCardProps {
  name: string;
  /** The voice picker with its audition (the page's: features do not import each other). */
  voice: ReactNode;
  /** Gives every line of the character the new name; answers why not, or null when done. */
  onRename: (to: string) => string | null;
  /** The scenes (1-based) the character speaks in, and how many lines in all. */
  scenes: number[];
  lineCount: number;
}

/** One character: the name (renamed in every line), the voice with its audition, where it speaks. */
export function CharacterCard({ name, voice, onRename, scenes, lineCount }: CharacterCardProps) {
  const [typed, setTyped] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);

  const rename = () => {
    const to = typed.trim();
    if (to === name) {
      setTyped(name);
      setProblem(null);
      return;
    }
    // The name typed stays in the box until it is fixed, so nothing typed is lost.
    setProblem(onRename(to));
  };

  return (
    <Card size="small" role="group" aria-label={`角色 ${name}`} title={name}>
      <Flex vertical gap={10}>
        <Flex vertical gap={4}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            角色名（修改后所有台词一起改）
          </Typography.Text>
          <Input
            aria-label={`角色名 ${name}`}
            maxLength={MAX_SPEAKER_CHARS}
            value={typed}
            status={problem ? 'error' : undefined}
            onChange={(event) => setTyped(event.target.value)}
            onBlur={rename}
            onPressEnter={rename}
          />
          {problem && (
            <Typography.Text type="danger" role="alert">
              {problem}
            </Typography.Text>
          )}
        </Flex>
        <Flex vertical gap={4}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            配音
          </Typography.Text>
          {voice}
        </Flex>
        <Flex gap={4} wrap align="center">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {lineCount} 句台词，出场：
          </Typography.Text>
          {scenes.map((scene) => (
            <Tag key={scene}>场景 {scene}</Tag>
          ))}
        </Flex>
      </Flex>
    </Card>
  );
}
