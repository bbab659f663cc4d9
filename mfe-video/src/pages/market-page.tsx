import { MarketStep } from '../flows/market/steps/market-step';

/** `/video/market/:segment?/:id?` 营销视频: the marketing video's four steps, the step in the path. */
export function MarketPage() {
  return <MarketStep />;
}
