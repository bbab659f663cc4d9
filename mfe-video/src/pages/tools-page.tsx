import { PageFrame } from '../components/page-frame';
import { ToolCards } from '../features/tools/components/tool-cards';

/** `/video/tool` 视频工具. The host menu reads `?type=tools`; this page keeps the address as is. */
export function ToolsPage() {
  return (
    <PageFrame title="视频工具">
      <ToolCards />
    </PageFrame>
  );
}
