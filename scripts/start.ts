console.log('the demo starter is being built');
