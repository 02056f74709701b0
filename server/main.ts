import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer, Logger, References, Runtime } from "effect"
import { makeServer } from "./app.ts"
import { ServerConfig } from "./config.ts"
import { serverLogger } from "./observability/logger.ts"

const config = ServerConfig.fromEnv()

// SIGTERM and SIGINT interrupt the launch: connections drain, socket.io and the
// database close, the data folder's lock is released. A stop that was asked
// for is a clean exit (0), so process managers do not report a crash.
Layer.launch(makeServer(config)).pipe(
  Effect.onInterrupt(() => Effect.logInfo("server stopped")),
  // Lines on stdout (JSON in production), and as events on the spans they belong to.
  Effect.provide(Logger.layer([serverLogger({ serverId: config.serverId, format: config.logFormat }), Logger.tracerLogger])),
  Effect.provideService(References.MinimumLogLevel, config.logLevel),
  NodeRuntime.runMain({
    teardown: (exit, onExit) =>
      Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
  })
)
