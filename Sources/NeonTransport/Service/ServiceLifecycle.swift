import CLibWebSockets
import Dispatch
import NeonLock
import NeonTransportCore

/// The two commands every service thread understands; posted by
/// ``ServiceLifecycle/stop(gracePeriod:)``.
protocol LifecycleCommand: Sendable {
    /// Close every connection with 1001, then leave the service loop once
    /// the last one has closed.
    static var shutdown: Self { get }
    /// Leave the service loop now (the grace period is over).
    static var exitNow: Self { get }
}

/// An engine (a server's or a client context's) as the shared
/// ``ServiceLifecycle`` drives it. `lifecycle` may be read from any thread;
/// every other requirement is called on the service thread only.
protocol ServiceEngine: AnyObject, Sendable {
    associatedtype Command: LifecycleCommand
    /// What only the service thread touches: connections, sessions, flags.
    associatedtype ThreadState: ServiceFlags

    /// The engine's service-thread state, bound to its thread: pinned by
    /// ``pinServiceThread()`` before anything else runs there, and checked
    /// on every access (``ServiceThreadBound``).
    var serviceState: ServiceThreadBound<ThreadState> { get }

    /// The engine's thread, command queue and start/stop state.
    var lifecycle: ServiceLifecycle<Command> { get }
    /// `true` once the service loop should end.
    var exitRequested: Bool { get }
    /// Creates the lws context (its `info.user` is ``contextUser``) and
    /// whatever listens in it; returns it and the bound port (0 when
    /// nothing listens). Strings lws keeps go into `memory`, which outlives
    /// the context.
    func createContext(memory: CMemory, loop: EventLoop) throws(TransportError) -> (context: OpaquePointer, port: Int)
    /// The event loop the engine's service thread runs on.
    var eventLoopKind: EventLoop.Kind { get }
    /// The context exists and posted commands now reach it; called before
    /// `start` returns.
    func serviceStarted(_ context: OpaquePointer)
    /// Runs one command.
    func perform(_ command: Command)
    /// Called after each `lws_service` round.
    func serviceRoundEnded()
    /// The loop has ended and nothing posted reaches the engine any more;
    /// the context still exists.
    func contextWillBeDestroyed()
    /// The context is destroyed (or was never created): the engine lets go
    /// of its connections and what they reach.
    func serviceEnded()
}

/// The two flags every engine's service-thread state carries.
protocol ServiceFlags: AnyObject {
    /// Every connection was asked to close; the loop ends with the last.
    var shuttingDown: Bool { get set }
    /// The service loop ends after this round.
    var exitRequested: Bool { get set }
}

extension ServiceEngine {
    // The flags by name; each access checks the thread.
    var shuttingDown: Bool {
        _read { yield serviceState.value.shuttingDown }
        set { serviceState.value.shuttingDown = newValue }
    }
    var exitRequested: Bool {
        _read { yield serviceState.value.exitRequested }
        set { serviceState.value.exitRequested = newValue }
    }

    /// Claims the engine's service-thread state for the calling thread, the
    /// service thread, as it starts.
    func pinServiceThread() {
        serviceState.pin()
    }

    /// The context user pointer that leads the C callback back to this
    /// engine (unretained: the engine outlives its context).
    var contextUser: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// The engine whose context `wsi` belongs to, found through the context
    /// user pointer (a C callback cannot capture it).
    static func owner(of wsi: OpaquePointer) -> Self? {
        guard let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
        return Unmanaged<Self>.fromOpaque(user).takeUnretainedValue()
    }

    /// Runs `command` directly on the service thread, or posts it to the
    /// service thread otherwise. Returns `false` (dropping the command)
    /// when the engine is not running.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        if lifecycle.isServiceThread {
            perform(command)
            return true
        }
        return lifecycle.queue.post(command)
    }

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: runs what other threads posted.
    func performPosted() {
        for command in lifecycle.queue.drain() {
            perform(command)
        }
    }
}

/// One lws context on its own service thread, from start to stop; shared by
/// ``WebSocketServer`` and ``WebSocketClientContext``.
///
/// `start` runs the engine on a new thread: the context is created there,
/// the caller waits until it is serving or has failed, and the thread then
/// serves until the engine asks to exit. `stop` asks the engine to close
/// every connection, gives them the grace period, then tells the loop to
/// exit; the thread destroys the context and is joined.
final class ServiceLifecycle<Command: LifecycleCommand>: Sendable {
    enum State: Equatable {
        case idle
        case starting
        case running(port: Int)
        case stopping
        case stopped
    }

    /// Work for the service thread from every other thread.
    let queue: ServiceThreadQueue<Command>
    private let thread = ServiceThread()
    private let state = Locked(State.idle)
    /// Entered when the service thread starts, left when it is done.
    private let exited = DispatchGroup()

    init(queue: ServiceThreadQueue<Command> = ServiceThreadQueue()) {
        self.queue = queue
    }

    /// `true` when the caller is running on the service thread.
    var isServiceThread: Bool {
        thread.isCurrent
    }

    /// The bound port while running; `nil` before and after.
    var port: Int? {
        state.withLock { state in
            if case .running(let port) = state { return port }
            return nil
        }
    }

    /// Starts the service thread for `engine` and returns once its context
    /// serves (with the bound port) or has failed (throwing why). Once only:
    /// a second call throws ``TransportError/alreadyRunning``.
    @discardableResult
    func start<Engine: ServiceEngine>(_ engine: Engine, threadName: String) throws(TransportError) -> Int
    where Engine.Command == Command {
        try finishStart(beginStart(engine, threadName: threadName))
    }

    /// Starts several engines' threads at once (a server's service threads,
    /// whose TLS contexts take tens of milliseconds of CPU each to make) and
    /// returns once every context serves; if one fails, the others are
    /// stopped and its error thrown.
    static func start<Engine: ServiceEngine>(_ engines: [(engine: Engine, threadName: String)]) throws(TransportError)
    where Engine.Command == Command {
        var latches: [(ServiceLifecycle, StartupLatch)] = []
        var failure: TransportError?
        for (engine, name) in engines {
            do {
                latches.append((engine.lifecycle, try engine.lifecycle.beginStart(engine, threadName: name)))
            } catch {
                failure = error
                break
            }
        }
        for (lifecycle, latch) in latches {
            do {
                try lifecycle.finishStart(latch)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure {
            stop(latches.map(\.0), gracePeriod: .zero)
            throw failure
        }
    }

    /// Starts the thread; the latch says when its context serves.
    private func beginStart<Engine: ServiceEngine>(_ engine: Engine, threadName: String) throws(TransportError) -> StartupLatch
    where Engine.Command == Command {
        try state.withLock { state throws(TransportError) in
            guard state == .idle else { throw .alreadyRunning }
            state = .starting
        }
        let startup = StartupLatch()
        let exited = exited
        exited.enter()
        do {
            try thread.start(name: threadName) {
                Self.serve(engine, startup: startup)
                exited.leave()
            }
        } catch {
            exited.leave()
            state.withLock { $0 = .stopped }
            throw error
        }
        return startup
    }

    /// Waits until the started thread's context serves or has failed.
    @discardableResult
    private func finishStart(_ startup: StartupLatch) throws(TransportError) -> Int {
        switch startup.wait() {
        case .success(let port):
            state.withLock { $0 = .running(port: port) }
            return port
        case .failure(let error):
            thread.join()
            state.withLock { $0 = .stopped }
            throw error
        }
    }

    /// Asks the engine to close every connection, waits up to
    /// `gracePeriod` for them, then has the loop exit; returns once the
    /// context is destroyed and the thread joined. Idempotent; returns at
    /// once if the engine never started. Not on the service thread.
    func stop(gracePeriod: Duration) {
        Self.stop([self], gracePeriod: gracePeriod)
    }

    /// Stops several engines together (a server's service threads): each
    /// is asked to close its connections at once, all share one grace
    /// period, and this returns once every one has ended and been joined.
    static func stop(_ lifecycles: [ServiceLifecycle], gracePeriod: Duration) {
        let running = lifecycles.map { lifecycle in
            lifecycle.state.withLock { state -> Bool in
                guard case .running = state else { return false }
                state = .stopping
                return true
            }
        }
        for (lifecycle, wasRunning) in zip(lifecycles, running) where wasRunning {
            lifecycle.queue.post(.shutdown)
        }
        let deadline = gracePeriod.dispatchDeadline
        for (lifecycle, wasRunning) in zip(lifecycles, running) where wasRunning {
            if lifecycle.exited.wait(timeout: deadline) == .timedOut {
                lifecycle.queue.post(.exitNow)
            }
        }
        for lifecycle in lifecycles {
            lifecycle.exited.wait()
            lifecycle.thread.join()
            lifecycle.state.withLock { state in
                if state == .stopping { state = .stopped }
            }
        }
    }

    /// Blocks the calling thread until the service thread is done.
    func waitUntilStopped() {
        exited.wait()
    }

    /// The service thread's body: create the context and report the port,
    /// serve until the engine asks to exit, then tear everything down.
    private static func serve<Engine: ServiceEngine>(_ engine: Engine, startup: StartupLatch)
    where Engine.Command == Command {
        engine.pinServiceThread()
        WebSocketLibrary.checkHeadroom()
        let memory = CMemory()
        TransportLog.applyDefaultLevels()
        let loop = EventLoop(engine.eventLoopKind)
        let context: OpaquePointer
        do {
            let created = try engine.createContext(memory: memory, loop: loop)
            context = created.context
            engine.lifecycle.queue.open(context)
            engine.serviceStarted(context)
            startup.finish(.success(created.port))
        } catch {
            startup.finish(.failure(error))
            engine.serviceEnded()
            return
        }
        while !engine.exitRequested {
            if !loop.serviceOnce(context) {
                break
            }
            engine.serviceRoundEnded()
        }
        engine.lifecycle.queue.close()
        engine.contextWillBeDestroyed()
        loop.contextWillBeDestroyed()
        lws_context_destroy(context)
        engine.serviceEnded()
        withExtendedLifetime((memory, loop)) {}
    }
}
