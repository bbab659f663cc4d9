import { Alert, Descriptions, Flex } from 'antd';
import {
  MAX_TRUE_PEAK_DBTP,
  ProjectType,
  TARGET_LOUDNESS_LUFS,
  getWorkInfo,
  type QualityReport,
  type WorkDetail,
} from '@kol/shared-sdk';
import { QualityActionButton } from '../../../components/quality-action';
import { RegenerateClips, shotsWithoutClip } from '../../../components/regenerate-clips';
import { videoQuery } from '../../../lib/video-address';

const COMIC_TYPES: readonly number[] = [ProjectType.comics, ProjectType.comicsOverseas];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} 秒`;

type Problem = QualityReport['problems'][number];

/**
 * The report's problems, and for a report stored before the pictures and the voice were checked
 * (no `offlineVoice` field) the same findings read from its engines: a page never says
 * 未发现问题 over an offline voice or local pictures.
 */
function reportProblems(report: QualityReport): Problem[] {
  if (report.offlineVoice !== undefined) return report.problems;
  const derived: Problem[] = [];
  if (report.providers.pictures?.includes('本地画面') && report.fallbackShots.length === 0) {
    derived.push({
      kind: 'localPictures',
      message: '画面是本地画面（未配置图像服务）：只有文字排版，不是生成的插画',
      action: 'configureImages',
    });
  }
  if (report.providers.voice?.includes('espeak-ng')) {
    derived.push({
      kind: 'offlineVoice',
      message: '配音由离线引擎 espeak-ng 合成：声音机械，不适合直接发布',
      action: 'configureVoice',
    });
  }
  return [...report.problems, ...derived];
}

/** Where a work's pictures are drawn again: the comic flow's pictures page, else the editor. */
function redrawPath(work: WorkDetail): string | null {
  if (COMIC_TYPES.includes(work.type)) {
    return `/video/promptWord/${work.workId}${videoQuery(work.type, work.workId)}`;
  }
  // The video editor redraws one shot's picture; a scroll video has no editor, a drama no
  // drawn pictures.
  if (work.type === ProjectType.scroll || work.shots.length === 0) return null;
  return `/work/cut/${work.workId}`;
}

/**
 * The quality report of a finished video (measured when it was composed): loudness and true
 * peak, its length against the narration's, the engines, and each problem as a warning with
 * what fixes it: a picture redrawn (the comic flow's pictures page, or the video editor), or a
 * service the installation lacks (local pictures, the offline voice), named for the person who
 * sets it up.
 */
export function QualityReportCard({
  report,
  work,
  onWorkChanged,
}: {
  report: QualityReport;
  work: WorkDetail;
  /** The work once a fix changed it (clips made again). */
  onWorkChanged: (work: WorkDetail) => void;
}) {
  const redraw = redrawPath(work);
  const problems = reportProblems(report);
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
          ...(report.providers.clips
            ? [{ key: 'clips', label: '动态镜头', children: report.providers.clips }]
            : []),
          ...(report.calls
            ? [
                {
                  key: 'calls',
                  label: '服务调用',
                  children: `画面 ${report.calls.pictures} 张 · 动态镜头 ${report.calls.clips} 段 · 配音 ${report.calls.speechSeconds} 秒`,
                },
              ]
            : []),
        ]}
      />
      {problems.length === 0 ? (
        <Alert type="success" showIcon title="未发现问题" />
      ) : (
        problems.map((problem) => (
          <Alert
            key={`${problem.kind}:${problem.message}`}
            type="warning"
            showIcon
            title={problem.message}
            action={
              problem.action === 'regenerateClips' ? (
                <RegenerateClips
                  workId={work.workId}
                  pending={shotsWithoutClip(work, report.stillShots ?? [])}
                  doneText="动态镜头已重新生成，重新生成视频后用于成片"
                  onEnded={() =>
                    void getWorkInfo({ workId: work.workId }).then(onWorkChanged, () => undefined)
                  }
                />
              ) : problem.action ? (
                <QualityActionButton action={problem.action} redraw={redraw} />
              ) : problem.kind === 'fallbackShots' && redraw ? (
                // A report stored before problems carried their action.
                <QualityActionButton action="regeneratePictures" redraw={redraw} />
              ) : undefined
            }
          />
        ))
      )}
    </Flex>
  );
}
