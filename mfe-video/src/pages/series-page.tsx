import { useParams } from '@kol/shared-sdk/router';
import { SeriesScreen } from '../features/series/series-screen';

/** `/video/series/:id` 系列: one series, its cast and its episodes. */
export function SeriesPage() {
  const { id } = useParams();
  return <SeriesScreen key={id} seriesId={Number(id) || 0} />;
}
