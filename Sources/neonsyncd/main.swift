import NeonServer
