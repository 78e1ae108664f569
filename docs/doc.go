// Package docs holds schedlab's documentation: the Markdown pages that
// README.md links to. It has no code; its test checks that every relative
// link in the repository's Markdown files leads to a file that exists and,
// when it names an anchor, to a heading or element of that file, and that
// policies.md names every registered policy.
package docs
