/** The event list: the planner, its drivers and reads (GET /events, feeds, pages). */
export { EXAMPLE_QUERIES, explainPlan, planTable } from './explain';
export { listEventRows, listEvents } from './list';
export { planEventList, type EventListPlan, type EventListQuery, type ScopePlan } from './plan';
export { repositoryReads, withKnownPosts, type ListReads } from './reads';
