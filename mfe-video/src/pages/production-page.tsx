import { ProductionScreen } from '../features/production/production-screen';

/** `/video/production` 生成任务: the user's video tasks, live. */
export function ProductionPage() {
  return <ProductionScreen />;
}
