import { Button, Card, Col, Row, Typography } from 'antd';
import {
  AudioOutlined,
  FileTextOutlined,
  PictureOutlined,
  ScissorOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { ProjectType, canUseProjectType } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { usePageNavigate } from '../../../lib/phone';

interface Tool {
  name: string;
  description: string;
  icon: ReactNode;
  path: string;
  /** The video type whose permission the tool needs, if any. */
  needs: ProjectType | null;
}

const TOOLS: Tool[] = [
  {
    name: '文字转语音',
    description: '输入文本、选择音色和语速，试听后合成并下载音频；长文本分段合成。',
    icon: <AudioOutlined aria-hidden />,
    path: '/tts',
    needs: null,
  },
  {
    name: '视频去重',
    description: '镜像、裁剪放大、变速、调色、改帧率、去片头片尾，预览后重新导出。',
    icon: <ScissorOutlined aria-hidden />,
    path: '/video/cutDuplicates/config',
    needs: ProjectType.convert,
  },
  {
    name: '分镜字幕',
    description: '把文案按句拆成分镜字幕，逐条修改、合并、拆分，并提前检查限流词。',
    icon: <FileTextOutlined aria-hidden />,
    path: '/video/configuration?videoType=0',
    needs: ProjectType.comics,
  },
  {
    name: 'AI 画面',
    description: '为每个分镜生成画面，角色在所有分镜中保持同一形象，可逐张重绘。',
    icon: <PictureOutlined aria-hidden />,
    path: '/video/configuration?videoType=0',
    needs: ProjectType.comics,
  },
];

/** The tools: speech, de-duplication, captions and pictures, each leading to its page. */
export function ToolCards() {
  const user = useAtomValue(currentUserAtom);
  const navigate = usePageNavigate();
  return (
    <Row gutter={[16, 16]}>
      {TOOLS.map((tool) => {
        const allowed = tool.needs === null || canUseProjectType(user, tool.needs);
        return (
          <Col key={tool.name} xs={24} sm={12} lg={6}>
            <Card role="group" aria-label={tool.name} style={{ height: '100%' }}>
              <Typography.Title level={2} style={{ marginTop: 0, fontSize: 16 }}>
                {tool.icon} {tool.name}
              </Typography.Title>
              <Typography.Paragraph type="secondary">{tool.description}</Typography.Paragraph>
              {!allowed && (
                <Typography.Paragraph type="warning">
                  你的账号还没有开通这个工具
                </Typography.Paragraph>
              )}
              <Button
                type="primary"
                block
                disabled={!allowed}
                aria-label={`打开${tool.name}`}
                // antd spaces two Chinese characters apart (「打 开」), and the name must hold the
                // text as shown (the accessibility audit's label-content-name-mismatch).
                autoInsertSpace={false}
                onClick={() => navigate(tool.path)}
              >
                打开
              </Button>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
