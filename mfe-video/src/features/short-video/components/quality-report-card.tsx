import { Alert, Button, Descriptions, Flex } from 'antd';
import { Link } from '@kol/shared-sdk/router';
import {
  MAX_TRUE_PEAK_DBTP,
  ProjectType,
  TARGET_LOUDNESS_LUFS,
  type QualityReport,
  type WorkDetail,
} from '@kol/shared-sdk';
import { flowQuery, type ComicType } from '../../../lib/comic-flow';

const COMIC_TYPES: readonly number[] = [ProjectType.comics, ProjectType.comicsOverseas];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} 秒`;

/**
 * The quality report of a finished video (measured when it was composed): loudness and true
 * peak, its length against the narration's, the engines, and each problem as a warning. The
 * shots that fell back to the local frame link to the comic flow's pictures page, where they
 * can be drawn again; other types have no such page, so they only show the warning.
 */
export function QualityReportCard({ report, work }: { report: QualityReport; work: WorkDetail }) {
  const redraw = COMIC_TYPES.includes(work.type)
    ? `/video/promptWord/${work.workId}${flowQuery(work.type as ComicType, work.workId)}`
    : null;
  return (
    <Flex vertical gap={12}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          {
            key: 'loudness',
            label: '响度',
            children: `${report.loudnessLufs.toFixed(1)} LUFS（目标 ${TARGET_LOUDNESS_LUFS} LUFS）`,
          },
          {
            key: 'peak',
            label: '真峰值',
            children: `${report.truePeakDbtp.toFixed(1)} dBTP（上限 ${MAX_TRUE_PEAK_DBTP} dBTP）`,
          },
          {
            key: 'duration',
            label: '时长',
            children: `成片 ${seconds(report.durationMs)} · 配音 ${seconds(report.narrationMs)}`,
          },
          { key: 'text', label: '文本', children: report.providers.text ?? '作者自己的文案' },
          { key: 'pictures', label: '画面', children: report.providers.pictures ?? '无生成画面' },
          { key: 'voice', label: '配音', children: report.providers.voice ?? '未记录' },
        ]}
      />
      {report.problems.length === 0 ? (
        <Alert type="success" showIcon title="未发现问题" />
      ) : (
        report.problems.map((problem) => (
          <Alert
            key={`${problem.kind}:${problem.message}`}
            type="warning"
            showIcon
            title={problem.message}
            action={
              problem.kind === 'fallbackShots' && redraw ? (
                <Link to={redraw}>
                  <Button size="small">重新生成画面</Button>
                </Link>
              ) : undefined
            }
          />
        ))
      )}
    </Flex>
  );
}
