import { adminEndpoints } from '@kol/shared-sdk/contracts';
import { compact, required } from '../args';
import type { Command, CommandGroup } from '../command';

const publish: Command = {
  name: 'publish',
  usage: ['notice publish --title T --content C [--category NAME]'],
  async run({ values, call, quiet, io }) {
    const notice = (await call(adminEndpoints.publishNotice, {
      title: required(values, 'title'),
      content: required(values, 'content'),
      ...compact({ category: values.category }),
    })) as { id: number; categoryName: string; title: string };
    if (!quiet) io.out(`Published notice ${notice.id} "${notice.title}" in ${notice.categoryName}`);
  },
};

/** Notices every user sees. */
export const noticeCommands: CommandGroup = {
  name: 'notice',
  commands: [publish],
};
