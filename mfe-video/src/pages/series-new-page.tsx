import { NewSeriesScreen } from '../features/series/new-series-screen';

/** `/video/series` 整季生成: the creator's series and a new one. */
export function SeriesNewPage() {
  return <NewSeriesScreen />;
}
