import { Empty } from 'antd';
import { useNavigate, useSearchParams } from '@kol/shared-sdk/router';
import { OutsideFrame } from '../components/outside-frame';
import { CutEditorScreen } from '../features/cut-editor/components/cut-editor-screen';
import { DEFAULT_TIMING, type CutEditorTiming } from '../features/cut-editor/constants';

interface VideoCutPageProps {
  /** Shorter waits for tests; the page uses the defaults. */
  timing?: Partial<CutEditorTiming>;
}

/** The work named by `?workId=`: a positive whole number, else null. */
function workIdOf(params: URLSearchParams): number | null {
  const raw = params.get('workId') ?? '';
  const id = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Where the way back leads: the video hub, as on the video flow's other outside pages. */
const BACK = { to: '/video', label: '视频合成' };

/**
 * `/video/cut?workId=` 片段编辑 (outside the layout; the decompression video's result page leads
 * here): the same editor as `/work/cut/:id`, in a frame of its own. A merge leads on to the video
 * flow's progress page (`/video/production?workId=`), where every render of the flow is followed.
 * A failed user fetch here goes to `/login?returnUrl=/video/cut`: the host's session gate does it.
 */
export function VideoCutPage({ timing }: VideoCutPageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const workId = workIdOf(params);
  return (
    <OutsideFrame back={BACK}>
      {workId === null ? (
        <Empty description="没有指定作品：请从解压视频的结果页进入片段编辑" />
      ) : (
        <CutEditorScreen
          key={workId}
          workId={workId}
          timing={{ ...DEFAULT_TIMING, ...timing }}
          onMergeStarted={() => navigate(`/video/production?workId=${workId}`)}
        />
      )}
    </OutsideFrame>
  );
}
