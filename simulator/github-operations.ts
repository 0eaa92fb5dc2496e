// The GitHub REST operations each route of the fake GitHub (simulator/github/routes.ts) stands for, as
// GitHub's OpenAPI description (@octokit/openapi, api.github.com) names them: `METHOD /path`.
// scripts/openapi-subset.ts cuts these operations out of the description into
// schemas/github-rest-subset.json, and simulator/openapi-contract.ts checks the fake's answers
// against them. GraphQL is one endpoint, POST /graphql, which the REST description leaves out
// (https://docs.github.com/graphql/guides/forming-calls-with-graphql#the-graphql-endpoint).
import type { RouteName } from './github/routes.js'

export const GRAPHQL_OPERATION = 'POST /graphql'

export const GITHUB_OPERATIONS: Record<RouteName, readonly string[]> = {
  'release-by-tag': ['GET /repos/{owner}/{repo}/releases/tags/{tag}'],
  releases: ['GET /repos/{owner}/{repo}/releases'],
  'latest-release': ['GET /repos/{owner}/{repo}/releases/latest'],
  tags: ['GET /repos/{owner}/{repo}/tags'],
  'matching-refs': ['GET /repos/{owner}/{repo}/git/matching-refs/{ref}'],
  ref: ['GET /repos/{owner}/{repo}/git/ref/{ref}'],
  'tag-object': ['GET /repos/{owner}/{repo}/git/tags/{tag_sha}'],
  compare: ['GET /repos/{owner}/{repo}/compare/{basehead}'],
  commits: ['GET /repos/{owner}/{repo}/commits'],
  tree: ['GET /repos/{owner}/{repo}/git/trees/{tree_sha}'],
  contents: ['GET /repos/{owner}/{repo}/contents/{path}'],
  pulls: ['GET /repos/{owner}/{repo}/pulls'],
  pull: ['GET /repos/{owner}/{repo}/pulls/{pull_number}'],
  'pull-files': ['GET /repos/{owner}/{repo}/pulls/{pull_number}/files'],
  'workflow-runs': ['GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'],
  'collaborator-permission': ['GET /repos/{owner}/{repo}/collaborators/{username}/permission'],
  labels: ['POST /repos/{owner}/{repo}/issues/{issue_number}/labels'],
  comments: ['GET /repos/{owner}/{repo}/issues/{issue_number}/comments'],
  'comment-create': ['POST /repos/{owner}/{repo}/issues/{issue_number}/comments'],
  'comment-update': ['PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}'],
  'comment-delete': ['DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}'],
  reaction: [
    'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions'
  ],
  'release-update': ['PATCH /repos/{owner}/{repo}/releases/{release_id}'],
  user: ['GET /user'],
  graphql: [GRAPHQL_OPERATION],
  'requested-reviewers': ['POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'],
  assignees: ['POST /repos/{owner}/{repo}/issues/{issue_number}/assignees'],
  'issue-events': ['GET /repos/{owner}/{repo}/issues/{issue_number}/events'],
  merge: ['PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge'],
  'check-create': ['POST /repos/{owner}/{repo}/check-runs'],
  'check-update': ['PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'],
  'check-runs': ['GET /repos/{owner}/{repo}/commits/{ref}/check-runs'],
  'check-suites': ['GET /repos/{owner}/{repo}/commits/{ref}/check-suites'],
  'check-annotations': ['GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations'],
  'commit-status': ['GET /repos/{owner}/{repo}/commits/{ref}/status']
}
