// swift-tools-version: 6.0
import PackageDescription

// NeonCore, the pure core, is the hot path of server and clients alike
// (parsing a 1 MB document, laying it out, fan-out encoding): built as the
// root package (this repository, its tests, its benchmarks) it is compiled
// optimized in every configuration, so debug builds and the tests run it at
// the speed users get (the suite's server processes stall without it:
// docs/ARCHITECTURE.md, "Test tiers"). So are NeonTUI and NeonClient, the
// pure client: the screen sweep draws every screen at 600 sizes
// (docs/RELIABILITY.md) and the terminal tests' clients draw with them.
// SwiftPM refuses unsafe flags in a package depended on from a repository,
// which it checks out under `checkouts/`: there these have no flag of their
// own and are built as the dependent package's configuration says.
let checkedOutAsDependency = Context.packageDirectory.contains("/checkouts/")
let optimizedPure: [SwiftSetting] = checkedOutAsDependency ? [] : [.unsafeFlags(["-O"])]
// NeonTransportCore holds what the transport does per delivery (a frame
// queued, a connection's state stepped, the queue written): split out of
// NeonTransport, its calls would no longer be inlined into the engines, which
// cost the server about 8% more CPU per delivery (docs/PERFORMANCE.md, "The
// transport's vocabulary in a module of its own"). Cross-module optimization
// lets the engines inline them again.
let inlinedAcrossModules: [SwiftSetting] = checkedOutAsDependency ? [] : [.unsafeFlags(["-cross-module-optimization"])]

// NeonSync builds on Linux only: the code imports Glibc, and the C libraries
// (libwebsockets, OpenSSL, SQLite, hiredis, cmark-gfm) come from Debian's
// -dev packages through pkg-config (deploy/setup.sh installs them).
let package = Package(
    name: "NeonSync",
    products: [
        .executable(name: "neonsyncd", targets: ["neonsyncd"]),
        .executable(name: "neonsync", targets: ["neonsync"]),
        // Every benchmark: load against servers and a cluster's Redis
        // (`neonsync bench` runs it), and the core's micro-benchmarks.
        .executable(name: "neonsync-bench", targets: ["neonsync-bench"]),
        // The shared draft's deterministic simulation (docs/RELIABILITY.md).
        .executable(name: "neonsync-draft-sim", targets: ["NeonDraftSim"]),
        // For a client of one's own: documents, layout, the wire protocol.
        .library(name: "NeonCore", targets: ["NeonCore"]),
        // The code highlighter's plug-in, libNeonSyntax.so: KDE's
        // KSyntaxHighlighting (and Qt behind it) behind a C face. No
        // executable links it: NeonRender's CodeHighlighter opens it at run
        // time (dlopen) beside the executable (.build/debug, .build/release)
        // or in ../lib/neonsync (/usr/lib/neonsync, the neonsync-highlight
        // package), so neonsync runs, unhighlighted, without it and without
        // Qt (docs/PACKAGING.md).
        .library(name: "NeonSyntax", type: .dynamic, targets: ["CSyntaxHighlighting"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibWebSockets",
            path: "Sources/CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            path: "Sources/CHiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        .systemLibrary(
            name: "CCmarkGFM",
            path: "Sources/CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // Qt 5's include directories (pkg-config) for the highlighter's C++.
        // SwiftPM takes only the -I of its pkg-config flags: the build's
        // "warning: prohibited flag(s): -DQT_GUI_LIB, -DQT_CORE_LIB" says it
        // dropped the two defines, which only qmake's module checks read.
        .systemLibrary(
            name: "CQt5",
            path: "Sources/CQt5",
            pkgConfig: "Qt5Gui",
            providers: [.apt(["qtbase5-dev"])]
        ),
        // KDE's KSyntaxHighlighting behind a small C face (C++ target), the
        // NeonSyntax plug-in's only target; nothing else depends on it. Its
        // headers are included by full path (<KF5/KSyntaxHighlighting/...>,
        // which has no pkg-config file), C++17 is the package's
        // cxxLanguageStandard and SwiftPM compiles C++ with -fPIC (which Qt
        // requires), so no flag is unsafe. The Debian package's plug-in is
        // compiled from the same source by deploy/debian/build.sh: SwiftPM
        // links every library it makes against libswiftCore.so.
        .target(
            name: "CSyntaxHighlighting",
            dependencies: ["CQt5"],
            path: "Sources/CSyntaxHighlighting",
            linkerSettings: [.linkedLibrary("KF5SyntaxHighlighting"), .linkedLibrary("Qt5Core"), .linkedLibrary("stdc++")]
        ),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSixel", path: "Sources/CSixel", pkgConfig: "libsixel", providers: [.apt(["libsixel-dev"])]),
        // libyaml: the front matter, comment commands' YAML and the client's config file.
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // The package's one lock type, a pthread mutex ThreadSanitizer can see
        // (Sources/NeonLock/Locked.swift).
        .target(name: "NeonLock", swiftSettings: inlinedAcrossModules),
        .target(name: "NeonCore", dependencies: ["CCmarkGFM", "CYAML", "NeonLock"], swiftSettings: optimizedPure),
        // The transport's vocabulary, which links no libwebsockets (as NIOCore
        // stands apart from NIOPosix): connection IDs, messages, close codes,
        // a connection's state machine, outbound frames and queues, and the
        // binding of state to a service thread. The gateway speaks only this.
        .target(name: "NeonTransportCore", swiftSettings: inlinedAcrossModules),
        // The WebSocket engines on libwebsockets: the only module that imports it.
        .target(name: "NeonTransport", dependencies: ["NeonLock", "NeonTransportCore", "CLibWebSockets"]),
        // The shells' small file I/O shared by server and client (private files).
        .target(name: "NeonSystem", dependencies: ["NeonCore"]),
        // The client shell's rendering helpers that read from disk or call
        // C libraries: code highlighting (the NeonSyntax plug-in, opened at
        // run time), pictures (libpng, libjpeg-turbo, libsixel) and the
        // graphics protocols.
        .target(name: "NeonRender", dependencies: ["NeonCore", "NeonTUI", "NeonSystem", "CPNG", "CTurboJPEG", "CSixel"]),
        .target(name: "NeonServer", dependencies: ["NeonLock", "NeonCore", "NeonTransport", "NeonTransportCore", "NeonSystem", "CSQLite", "CCrypto", "CHiredis"]),
        .executableTarget(name: "neonsyncd", dependencies: ["NeonLock", "NeonServer", "NeonTransport", "NeonTransportCore", "NeonCore", "NeonSystem"]),
        .target(name: "NeonTUI", dependencies: ["NeonLock", "NeonCore"], swiftSettings: optimizedPure),
        .target(name: "NeonClient", dependencies: ["NeonCore", "NeonTUI"], path: "Clients/NeonClient", swiftSettings: optimizedPure),
        // The client's crash handler: async-signal-safe, so C (Clients/neonsync/CrashReport.swift).
        .target(name: "CCrashReport", path: "Sources/CCrashReport"),
        .executableTarget(name: "neonsync", dependencies: ["NeonLock", "NeonClient", "NeonTUI", "NeonCore", "NeonTransport", "NeonTransportCore", "NeonSystem", "NeonRender", "CCrashReport"], path: "Clients/neonsync"),
        // Load generation, in one place: the scenarios of neonsync-bench,
        // over WebSocket connections (the client's transport) and against a
        // cluster's Redis (through a node's own link to it: what NeonServer
        // exposes to the package for it is `package`).
        .target(name: "NeonLoad", dependencies: ["NeonLock", "NeonCore", "NeonTUI", "NeonClient", "NeonTransport", "NeonTransportCore", "NeonSystem", "NeonServer"]),
        // The benchmarks' program: the load scenarios, and `core`, the
        // core's micro-benchmarks (its Core/ folder).
        .executableTarget(name: "neonsync-bench", dependencies: ["NeonLoad", "NeonCore", "NeonTUI", "NeonClient", "NeonRender", "NeonSystem", "CCmarkGFM"],
                          path: "Sources/neonsync-bench"),
        // The shared draft's deterministic simulation: the product's client
        // and server code in one thread, every choice from a seed.
        .target(name: "NeonSimulation", dependencies: ["NeonLock", "NeonServer", "NeonClient", "NeonCore", "NeonTransportCore", "NeonTUI"]),
        .executableTarget(name: "NeonDraftSim", dependencies: ["NeonSimulation", "NeonSystem", "NeonCore"]),
        // Tests, by tier (docs/ARCHITECTURE.md, "Test tiers"): a target named
        // after its module (Neon…Tests) is pure — no socket, no service
        // thread, no child process; the other tiers are named by their
        // prefix, so `swift test --filter '^Tier'` runs one tier:
        // InProcess… (the product's code in this process, on real sockets,
        // threads and files), Process… (neonsyncd, neonsync, redis-server,
        // python3 as processes), Terminal… (neonsync in tmux), Deploy…
        // (packages, systemd, nginx, logrotate, deploy/). Targets that run
        // neonsyncd, neonsync or neonsync-bench depend on them, so the
        // binaries are built before the tests that run them.
        .target(name: "NeonTestSupport", dependencies: ["NeonLock", "NeonCore", "NeonTransport", "NeonTransportCore"], path: "Tests/Support"),
        .target(name: "NeonServerTestSupport", dependencies: ["NeonLock", "NeonServer", "NeonTransport", "NeonTransportCore", "NeonCore", "NeonTestSupport"],
                path: "Tests/ServerSupport"),
        .target(name: "NeonClientTestSupport", dependencies: ["NeonCore", "NeonTUI", "NeonTestSupport"], path: "Tests/ClientSupport"),
        // Pure.
        .testTarget(name: "NeonLockTests", dependencies: ["NeonLock"]),
        .testTarget(name: "NeonCoreTests", dependencies: ["NeonLock", "NeonCore", "NeonTestSupport"]),
        .testTarget(name: "NeonTUITests", dependencies: ["NeonTUI", "NeonCore", "CCmarkGFM"]),
        .testTarget(name: "NeonRenderTests", dependencies: ["NeonRender", "NeonTUI", "NeonCore", "CTurboJPEG"]),
        .testTarget(name: "NeonSystemTests", dependencies: ["NeonSystem", "NeonCore", "NeonTestSupport"]),
        .testTarget(name: "NeonTransportCoreTests", dependencies: ["NeonTransportCore"]),
        .testTarget(name: "NeonTransportTests", dependencies: ["NeonTransport", "NeonTransportCore"]),
        .testTarget(name: "NeonServerTests", dependencies: ["NeonLock", "NeonServer", "NeonTransport", "NeonTransportCore", "NeonCore", "NeonServerTestSupport"]),
        .testTarget(name: "NeonClientTests", dependencies: ["NeonClient", "NeonTUI", "NeonCore", "NeonTransport", "NeonTestSupport", "NeonClientTestSupport"]),
        .testTarget(name: "NeonSimulationTests", dependencies: ["NeonSimulation", "NeonCore"]),
        .testTarget(name: "NeonLoadTests", dependencies: ["NeonLoad", "NeonClient", "NeonCore"]),
        // In-process.
        .testTarget(name: "InProcessTransportTests", dependencies: ["NeonLock", "NeonTransport", "NeonTransportCore", "NeonTestSupport"]),
        .testTarget(name: "InProcessServerTests", dependencies: ["NeonLock", "NeonServer", "NeonTransport", "NeonTransportCore", "NeonCore", "NeonTestSupport",
                                                                 "NeonServerTestSupport"]),
        // Processes.
        .testTarget(name: "ProcessServerTests", dependencies: ["NeonLock", "NeonServer", "NeonTransport", "NeonTransportCore", "NeonCore", "NeonTestSupport",
                                                               "NeonServerTestSupport", "neonsyncd", "neonsync", "neonsync-bench"]),
        .testTarget(name: "ProcessClientTests", dependencies: ["NeonClient", "NeonCore", "NeonSystem", "NeonTestSupport", "NeonClientTestSupport",
                                                               "neonsyncd", "neonsync", "neonsync-bench"]),
        // Terminal.
        .testTarget(name: "TerminalTests", dependencies: ["NeonClient", "NeonTUI", "NeonCore", "NeonRender", "NeonTestSupport", "NeonClientTestSupport",
                                                          "neonsyncd", "neonsync", "neonsync-bench"]),
        // Deploy and packaging.
        .testTarget(name: "DeployTests", dependencies: ["NeonLock", "NeonServer", "NeonTestSupport", "neonsyncd", "neonsync", "neonsync-bench"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
