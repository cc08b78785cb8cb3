"""groundwire.metrics"""
