"""groundwire.guards"""
