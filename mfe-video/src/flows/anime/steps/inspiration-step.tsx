import { Button, Col, Row } from 'antd';
import { useAtomValue } from 'jotai';
import { useSearchParams } from '@kol/shared-sdk/router';
import { ANIME_LENGTHS, canUseProjectType, sessionStore, type AnimeLength } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { ConfirmButton } from '../../../components/confirm-button';
import { PageFrame } from '../../../components/page-frame';
import { FlowSteps } from '../../../flow-kit/flow-steps';
import { NoPermission } from '../../../flow-kit/no-permission';
import { TextSourceCard } from '../../../flow-kit/text-source/components/text-source-card';
import { usePageNavigate, usePhoneLayout } from '../../../lib/phone';
import { ANIME_STEPS, ANIME_TYPE, MAX_SOURCE_CHARS, animeQuery, workIdOf } from '../anime-flow';
import { useAnimeInspiration } from '../api/use-anime-inspiration';
import { ANY_GENRE, AdaptOptions } from '../components/adapt-options';

const lengthOf = (value: string | null): AnimeLength =>
  value !== null && value in ANIME_LENGTHS ? (value as AnimeLength) : 'short';

/**
 * `/video/animeInspiration` 创意: the idea or the story (typed, pasted, a .txt, 我的文案 or a book
 * chapter), genre and length in the address (`&genre=&length=`, so a reload keeps them), and
 * 改编成剧本, which makes the work with the adapted script and opens the script page.
 */
export function AnimeInspirationStep() {
  const user = useAtomValue(currentUserAtom);
  const navigate = usePageNavigate();
  const phone = usePhoneLayout();
  const [params, setParams] = useSearchParams();
  const workId = workIdOf(params);
  const genre = params.get('genre') ?? ANY_GENRE;
  const length = lengthOf(params.get('length'));
  const inspiration = useAnimeInspiration({
    workId,
    onAdapted: (id, script) =>
      navigate(`/video/animeCaption${animeQuery(id)}`, {
        state: { engine: script.engine, note: script.note },
      }),
  });

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(name, value);
    setParams(next, { replace: true });
  };
  const adapt = () => inspiration.adapt(genre === ANY_GENRE ? undefined : genre, length);

  if (!canUseProjectType(user, ANIME_TYPE)) return <NoPermission type={ANIME_TYPE} />;

  const size = phone ? 'large' : 'middle';
  return (
    <PageFrame
      title="AI漫剧 · 创意"
      steps={<FlowSteps steps={ANIME_STEPS} current={0} />}
      actions={
        <>
          {workId !== null && (
            <Button onClick={() => navigate(`/video/animeCaption${animeQuery(workId)}`)}>
              继续编辑当前剧本
            </Button>
          )}
          {workId === null ? (
            <Button
              type="primary"
              size={size}
              loading={inspiration.adapting}
              onClick={() => void adapt()}
            >
              改编成剧本
            </Button>
          ) : (
            <ConfirmButton
              type="primary"
              size={size}
              loading={inspiration.adapting}
              confirmTitle="重新改编剧本？"
              confirmContent="当前作品的剧本会被新改编的剧本替换，之前对剧本的修改不会保留。"
              okText="重新改编"
              onConfirm={async () => {
                if (!(await adapt())) throw new Error('not adapted');
              }}
            >
              重新改编成剧本
            </ConfirmButton>
          )}
        </>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 14}>
          <TextSourceCard
            textLabel="故事或创意"
            placeholder="一句创意（如：雨夜，落魄书生在客栈遇见故人），或一段带对白的故事、小说章节"
            text={inspiration.source}
            onTextChange={inspiration.setSource}
            title={inspiration.title}
            onTitleChange={inspiration.setTitle}
            onChapterPicked={(chapterId) => sessionStore.set('chapterId', chapterId)}
            problem={inspiration.problem}
            maxChars={MAX_SOURCE_CHARS}
            handedOver={inspiration.handedOver}
            overseas={false}
          />
        </Col>
        <Col xs={24} lg={phone ? 24 : 10}>
          <AdaptOptions
            genre={genre}
            onGenreChange={(value) => setParam('genre', value)}
            length={length}
            onLengthChange={(value) => setParam('length', value)}
          />
        </Col>
      </Row>
    </PageFrame>
  );
}
