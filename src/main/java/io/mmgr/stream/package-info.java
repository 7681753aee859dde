/**
 * The scorer's packages, in layers; a package imports only from its own layer's packages and from the
 * layers below it, and no two packages import each other, however indirectly. {@code ArchitectureTest}
 * checks both on the compiled classes until Maven modules along the same lines enforce them.
 *
 * <ol>
 *   <li><b>base</b>: plain libraries that know nothing of the scorer: {@code avro} (generated), {@code json},
 *       {@code limits}, {@code vision}, {@code frechet}, and {@code registry}: the client and wire-format serdes
 *       of any Confluent-compatible registry (our own server is the lab's, {@code embedded.registry}).</li>
 *   <li><b>contract</b>: {@code contract} (topics, stores, keys, dead letters), then the task SPI
 *       {@code tasks} (above it: the SPI speaks the contract's types), then {@code artifacts} (the resolvers
 *       behind the SPI's {@code ArtifactResolver}).</li>
 *   <li><b>families</b>: {@code tasks.<family>}, behind the SPI; no family imports another. Their
 *       {@code eval} and {@code bench generate} commands share {@code tasks.cli} (above {@code artifacts},
 *       below the families), which the app adds under {@code mmgr} through the SPI.</li>
 *   <li><b>stream</b> ({@code leaderboard}, {@code topology}) and <b>workers</b> ({@code worker},
 *       {@code evaluate}, {@code judge}): side by side, neither imports the other nor a family (families are
 *       found through the SPI). In {@code topology} the sub-flow packages import neither each other nor
 *       {@code topology} itself: {@code ScoringTopology} wires them.</li>
 *   <li><b>app</b>: {@code app}, {@code web}, {@code report}, {@code cli}; then the <b>lab</b>: {@code embedded}
 *       (the in-process broker, the registry server, the hanging-transaction sweep; it imports no other package
 *       of ours), {@code demo} (also {@code EmbeddedLocalStack}, which hands the embedded stack and its sweep to
 *       the app) and {@code bench}. The app never imports the lab: it finds the lab's commands
 *       ({@code cli.CommandPlugin}) and the local stack of {@code run} without {@code --bootstrap-servers}
 *       ({@code app.LocalStack}) through {@link java.util.ServiceLoader}, so a build without the lab still runs
 *       against a team's own cluster.</li>
 * </ol>
 */
package io.mmgr.stream;
