// The docs link checker (`npm run lint:docs`): every link in README.md and docs/ to a file, a
// heading or an anchor must resolve. Offline: `repository: false` keeps remark-validate-links
// from reading the git remote, so links are checked against the working tree only.
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';

const config = {
  plugins: [remarkGfm, [remarkValidateLinks, { repository: false }]],
};

export default config;
