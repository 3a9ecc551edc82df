// Every test, and every service a test starts in a child process (they inherit this environment),
// would otherwise bind the metrics listener on the fixed default port 9464, where parallel test
// workers collide. A test that checks the metrics sets METRICS_PORT itself (0: any free port).
process.env.METRICS_PORT = 'off';
