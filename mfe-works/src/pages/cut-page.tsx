import { useParams } from '@kol/shared-sdk/router';
import { CutEditorScreen, WorkNotFound } from '../features/cut-editor/components/cut-editor-screen';
import { DEFAULT_TIMING, type CutEditorTiming } from '../features/cut-editor/constants';

interface CutPageProps {
  /** Shorter waits for tests; the page uses the defaults. */
  timing?: Partial<CutEditorTiming>;
}

/** `/work/cut/:id` 视频编辑: the editor of the work's cut video (`:id` is the work id). */
export function CutPage({ timing }: CutPageProps) {
  const { id } = useParams();
  const workId = Number(id);
  if (!Number.isInteger(workId) || workId <= 0) return <WorkNotFound />;
  return <CutEditorScreen key={workId} workId={workId} timing={{ ...DEFAULT_TIMING, ...timing }} />;
}
