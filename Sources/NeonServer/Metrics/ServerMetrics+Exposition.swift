import NeonCore

extension ServerMetrics {
    /// Every family in Prometheus text format 0.0.4, with `gauges` sampled now.
    /// Every label value is always present (zero until counted), so series
    /// exist from the first scrape.
    func exposition(_ gauges: MetricsGauges) -> String {
        var out = PrometheusText()
        out.family("neonsync_build_info", .gauge, help: "Always 1; the version label names the running neonsyncd.")
        out.sample("neonsync_build_info", labels: [("version", BuildStamp.version)], 1)
        out.family("neonsync_connections_open", .gauge, help: "WebSocket connections open now.")
        out.sample("neonsync_connections_open", gauges.connections)
        if !gauges.socketsPerThread.isEmpty {
            out.family("neonsync_service_thread_sockets", .gauge, help: """
                Sockets each service thread serves now (connections and HTTP requests; with one thread, its open \
                connections), by thread: how evenly --threads shares the load.
                """)
            for (thread, sockets) in gauges.socketsPerThread.enumerated() {
                out.sample("neonsync_service_thread_sockets", labels: [("thread", String(thread))], sockets)
            }
        }
        out.family("neonsync_connections_total", .counter, help: "WebSocket connections accepted since start.")
        out.sample("neonsync_connections_total", connections)
        out.family("neonsync_rooms", .gauge, help: "Rooms the server holds in memory, restored ones included.")
        out.sample("neonsync_rooms", gauges.rooms)
        out.family("neonsync_rooms_resting", .gauge,
                   help: "Rooms released from memory (--room-release) that the store keeps until someone joins them.")
        out.sample("neonsync_rooms_resting", gauges.restingRooms)
        out.family("neonsync_readers", .gauge, help: "Joined members of every room, by role.")
        for role in Role.allCases {
            out.sample("neonsync_readers", labels: [("role", role.rawValue)], gauges.readers[role, default: 0])
        }
        out.family("neonsync_messages_in_total", .counter,
                   help: "Frames received from clients by message type; invalid counts frames that did not decode.")
        for (type, count) in zip(Self.inboundTypes, messagesIn) {
            out.sample("neonsync_messages_in_total", labels: [("type", type)], count)
        }
        out.family("neonsync_messages_out_total", .counter,
                   help: "Messages queued to clients by type, one per recipient of a broadcast.")
        for (type, count) in zip(Self.outboundTypes, messagesOut) {
            out.sample("neonsync_messages_out_total", labels: [("type", type)], count)
        }
        out.family("neonsync_broadcasts_total", .counter, help: "Broadcasts encoded, each once for all its recipients.")
        out.sample("neonsync_broadcasts_total", broadcasts)
        out.family("neonsync_received_bytes_total", .counter, help: "Payload bytes of the frames received from clients.")
        out.sample("neonsync_received_bytes_total", bytesIn)
        out.family("neonsync_sent_bytes_total", .counter, help: "Payload bytes queued to clients, counted per recipient.")
        out.sample("neonsync_sent_bytes_total", bytesOut)
        out.family("neonsync_errors_total", .counter, help: "error messages sent to clients, by code.")
        for code in ErrorCode.allCases {
            out.sample("neonsync_errors_total", labels: [("code", code.rawValue)], errors[code, default: 0])
        }
        out.histogram("neonsync_broadcast_fanout_seconds", fanOut,
                      help: "Time from receiving the frame that caused a broadcast to queuing it to its last recipient.")
        out.family("neonsync_outbound_queue_frames", .gauge, help: "Frames queued and not yet written, over all connections.")
        out.sample("neonsync_outbound_queue_frames", gauges.queuedFrames)
        out.family("neonsync_outbound_queue_bytes", .gauge, help: "Payload bytes queued and not yet written, over all connections.")
        out.sample("neonsync_outbound_queue_bytes", gauges.queuedBytes)
        out.family("neonsync_coalesced_frames_total", .counter,
                   help: "Position updates dropped unsent because a newer one for the same reader replaced them (slow connections).")
        out.sample("neonsync_coalesced_frames_total", gauges.coalescedFrames)
        out.family("neonsync_slow_closes_total", .counter,
                   help: "Connections closed with 4008 because more than --max-outbound bytes waited unsent to them.")
        out.sample("neonsync_slow_closes_total", slowCloses)
        out.histogram("neonsync_store_commit_seconds", storeCommit, help: "Time of one store write (a room, a document or an acked revision).")
        return out.text
    }
}

extension ServerMetrics {
    /// The cluster families, labelled with the node's name.
    func clusterExposition(_ health: StoreHealth) -> String {
        let node = [("node", health.node)]
        var out = PrometheusText()
        out.family("neonsync_redis_connected", .gauge, help: "1 while this node's writers reach the cluster's Redis (every shard), else 0.")
        out.sample("neonsync_redis_connected", labels: node, health.connected ? 1 : 0)
        out.family("neonsync_redis_shard_connected", .gauge, help: "1 while this node's writer reaches this Redis of the cluster (one per --redis URL), else 0.")
        for shard in health.shards {
            out.sample("neonsync_redis_shard_connected", labels: node + [("redis", shard.redis)], shard.connected ? 1 : 0)
        }
        out.family("neonsync_redis_shard_master", .gauge, help: "1 for the server (HOST:PORT) this node's writer of a Redis of the cluster is connected to: for a sentinel:// shard, the master the Sentinels named. No sample while it is not connected.")
        for shard in health.shards {
            if let master = shard.master {
                out.sample("neonsync_redis_shard_master", labels: node + [("redis", shard.redis), ("master", master)], 1)
            }
        }
        out.family("neonsync_redis_failovers_total", .counter, help: "Times the Sentinels of a sentinel:// shard promoted another master since the node started.")
        for shard in health.shards {
            out.sample("neonsync_redis_failovers_total", labels: node + [("redis", shard.redis)], shard.failovers)
        }
        out.family("neonsync_redis_unconfirmed_total", .counter, help: "Entries kept whose sender was answered unavailable because fewer than --redis-replicas replicas confirmed them within --redis-replica-timeout.")
        for shard in health.shards {
            out.sample("neonsync_redis_unconfirmed_total", labels: node + [("redis", shard.redis)], shard.unconfirmed)
        }
        out.histogram("neonsync_redis_command_seconds", health.commandSeconds, labels: node,
                      help: "Round trip of one pipelined batch of Redis commands (appends, snapshots) from this node.")
        out.histogram("neonsync_redis_delivery_lag_seconds", clusterLag, labels: node,
                      help: "From an event's time on the node that received it to its application on this node, through Redis.")
        return out.text
    }
}
