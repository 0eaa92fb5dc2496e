/** How each mode's request is named in the step's messages. */
import type { Mode } from './state.js'

/** How each mode's request is named: one table instead of a branch per sentence. */
export const WORDING: Record<
  Mode,
  {
    /** "The create request was not accepted". */
    request: string
    /** "… so <posting>". */
    posting: string
    /** When the request left but no usable answer came. */
    mayHaveActed: string
    /** When it never left. */
    nothingSent: string
    /** Names the failed request in an error. */
    failing(jobId: string): string
    /** The summary's name for the request. */
    summary: string
    /** Where to look when the request may have acted. */
    dashboard: string
  }
> = {
  create: {
    request: 'The create request',
    posting: 'a new job is created',
    mayHaveActed: 'the job may have been created',
    nothingSent: 'no job was created',
    failing: () => 'Creating the job',
    summary: 'new job',
    dashboard: 'the agent jobs in the dashboard'
  },
  message: {
    request: 'The follow-up request',
    posting: 'the follow-up is sent',
    mayHaveActed: 'the follow-up may have been delivered',
    nothingSent: 'no follow-up was sent',
    failing: (jobId) => `Sending the follow-up to job ${jobId}`,
    summary: 'follow-up message',
    dashboard: 'the agent jobs in the dashboard'
  },
  'wait-only': {
    request: 'The read',
    posting: 'the job is read',
    mayHaveActed: '',
    nothingSent: '',
    failing: (jobId) => `Reading job ${jobId}`,
    summary: 'wait only',
    dashboard: 'the agent jobs in the dashboard'
  },
  automation: {
    request: 'The trigger request',
    posting: 'the automation is triggered',
    mayHaveActed: 'the automation run may have been queued',
    nothingSent: 'no automation run was queued',
    failing: () => 'Triggering the automation',
    summary: 'automation trigger',
    dashboard: 'the Automation Runs page of the Mintlify dashboard'
  }
}
