/**
 * The batch lane: judge requests sent through a provider's batch API at half the realtime price, answered within
 * hours instead of seconds.
 *
 * <h2>One shape per provider</h2>
 * {@link io.mmgr.stream.judge.batch.BatchProtocol} is the whole contract with a provider's batch API: build a
 * {@link io.mmgr.stream.judge.batch.BatchLine} from the same
 * {@link io.mmgr.stream.judge.protocol.ProviderCall} the realtime lane sends, {@code create} a batch of lines
 * tagged with our local id, {@code poll} its {@link io.mmgr.stream.judge.batch.BatchStatus}, stream its
 * {@code results} as {@link io.mmgr.stream.judge.batch.BatchOutcome}s, {@code find} a batch after a crash,
 * {@code cancel}. Implementations reuse the realtime client's body building and answer parsing through
 * {@link io.mmgr.stream.judge.protocol.ProviderCodec} (which every realtime client implements), so a batched
 * request carries exactly the realtime body and its answer is parsed and classified exactly as a realtime one:
 * <ul>
 *   <li>OpenAI ({@code OpenAiBatchProtocol}): JSONL lines {@code {"custom_id", "method": "POST", "url":
 *       "/v1/chat/completions", "body"}} uploaded to {@code /v1/files} (purpose {@code batch}), then
 *       {@code /v1/batches} with {@code completion_window 24h} and {@code metadata.mmgr_local_id}; the output and
 *       error files are read from {@code /v1/files/{id}/content}.</li>
 *   <li>Gemini: {@code models/{model}:batchGenerateContent} with {@code displayName} = local id, lines
 *       {@code {"key", "request"}}; states {@code BATCH_STATE_*}.</li>
 *   <li>Anthropic: {@code /v1/messages/batches}, lines {@code {"custom_id", "params"}}, results from
 *       {@code results_url}. A message batch keeps no tag of ours, so {@code find} matches on the
 *       {@link io.mmgr.stream.judge.batch.LocalBatch}'s creation time and request count.</li>
 * </ul>
 * The custom id is {@link io.mmgr.stream.judge.batch.CustomIds#of} the request key for every protocol: it meets
 * Anthropic's {@code ^[a-zA-Z0-9_-]{1,64}$}, and the batch record maps it back to the request key.
 *
 * <h2>Outcomes</h2>
 * An {@code Answered} outcome is final exactly as a realtime answer (verdict, cache). A {@code Failed} outcome
 * carries the {@link io.mmgr.stream.judge.protocol.ProviderException} the realtime lane would have raised for the
 * same status and body: final when the provider answered (refusal, 4xx of this request), else retried. An
 * {@code Unanswered} outcome (errored at the provider's side, expired, cancelled, or absent from the results) goes
 * back to the queue, counted as a retry. A batch that ends FAILED has no results: all its requests go back.
 *
 * <h2>Lifecycle and restarts</h2>
 * Batches and their request keys live in a compacted topic keyed by local id, written in this order: SUBMITTING
 * (local id, custom id to request key, time) <em>before</em> the create call, SUBMITTED (with the provider id)
 * after it, ENDED once its results are read. On start the lane reads the topic to its end before it submits
 * anything: a request whose key is in an open batch is held and that batch polled, never submitted again; a
 * SUBMITTING batch without provider id is looked up with {@code find}, and created again only when the provider
 * has none. So a kill -9 at any point neither submits a request twice nor bills it twice (the one window left
 * is a provider that keeps no tag and shows two equal candidates: the lane then polls both).
 *
 * <h2>Threads</h2>
 * Every protocol call returns a future; submitting, polling and reading results run on the lane's scheduled
 * executor, never on a stream or consumer thread. While a request is in a batch its verdict is PENDING with the
 * reason "in batch &lt;provider id&gt;".
 */
package io.mmgr.stream.judge.batch;
