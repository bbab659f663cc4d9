import { describe, expect, it } from '@jest/globals';
import { splitTweets, tweetHeading, TWEET_SEPARATOR } from '../tweets';

describe('tweets', () => {
  it('cuts a tweets task’s text back into its chapters, in order', () => {
    const titles = ['第一章 守灯人', '第二章 【逐出】'];
    const text =
      tweetHeading(titles[0] ?? '') +
      '林默守灯。\n他看见了【第二章 【逐出】】这几个字。' +
      TWEET_SEPARATOR +
      tweetHeading(titles[1] ?? '') +
      '沈青禾送来铜片。';
    expect(splitTweets(text, titles)).toEqual([
      '林默守灯。\n他看见了【第二章 【逐出】】这几个字。',
      '沈青禾送来铜片。',
    ]);
  });

  it('answers null when a chapter’s heading is missing', () => {
    expect(splitTweets(`${tweetHeading('第一章')}正文`, ['第一章', '第二章'])).toBeNull();
    expect(splitTweets('', ['第一章'])).toBeNull();
  });
});
